"""A minimal KGP client in Python's standard library, written for the tests from the KGP
specification and pykgp's behaviour, independent of kalah's code: TCP or WebSocket (RFC 6455,
written here), freeplay with random legal moves, verify with its own sowing.

    python3 kgp_client.py tcp|ws HOST PORT [--mode freeplay|verify] [--name NAME] [--token T]
                          [--wrong N] [--leave-after N] [--silent-after N] [--illegal yes]

It prints one line per event on standard output and a summary at the end; status 0 after the
server's goodbye, 1 if the connection ended without one.
"""

import base64
import os
import random
import re
import socket
import struct
import sys

COMMAND = re.compile(r"^\s*(?:(\d+)?(?:@(\d+))?\s+)?(\w+)(?:\s+(.*?))?\s*$")


class Tcp:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))
        self.buffer = b""

    def send(self, line):
        self.sock.sendall(line.encode() + b"\r\n")

    def lines(self):
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                yield line.decode().rstrip("\r")
            data = self.sock.recv(65536)
            if not data:
                return
            self.buffer += data

    def close(self):
        self.sock.close()


class WebSocket:
    """RFC 6455 from the client's side: the handshake, masked text frames out, frames in."""

    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /socket HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            data = self.sock.recv(1)
            if not data:
                raise SystemExit("client: no handshake answer")
            response += data
        status = response.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise SystemExit(f"client: handshake refused: {status!r}")
        self.messages = 0

    def exact(self, n):
        data = b""
        while len(data) < n:
            more = self.sock.recv(n - len(data))
            if not more:
                return None
            data += more
        return data

    def frame(self, opcode, payload):
        mask = os.urandom(4)
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, line):
        self.frame(0x1, line.encode() + b"\r\n")

    def lines(self):
        while True:
            head = self.exact(2)
            if head is None:
                return
            opcode, n = head[0] & 0x0F, head[1] & 0x7F
            if n == 126:
                n = struct.unpack(">H", self.exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.exact(8))[0]
            payload = self.exact(n) if n else b""
            if payload is None:
                return
            if opcode == 0x8:
                return
            if opcode == 0x9:
                self.frame(0xA, payload)
                continue
            if opcode == 0x1:
                self.messages += 1
                text = payload.decode()
                # go-kgp sends one line a message, with its line end.
                if not text.endswith("\r\n") or text.count("\n") != 1:
                    raise SystemExit(f"client: a message that is not one line: {text!r}")
                yield text[:-2]

    def close(self):
        self.sock.close()


def board(text):
    return [int(n) for n in text.strip("<>").split(",")]


def sow(numbers, pit):
    """South sows pit (from 0) under the reference server's rules; returns the board and the repeat."""
    m = numbers[0]
    stores = [numbers[1], numbers[2]]
    pits = [numbers[3:3 + m], numbers[3 + m:]]
    seeds, pits[0][pit] = pits[0][pit], 0
    side, at, repeat = 0, pit + 1, False
    while seeds > 0:
        if at == m:
            if side == 0:
                stores[0] += 1
                seeds -= 1
                repeat = seeds == 0
            side, at = 1 - side, 0
            continue
        pits[side][at] += 1
        seeds -= 1
        repeat = False
        if seeds == 0 and side == 0 and pits[0][at] == 1 and pits[1][m - 1 - at] > 0:
            stores[0] += 1 + pits[1][m - 1 - at]
            pits[0][at] = pits[1][m - 1 - at] = 0
        at += 1
    total = sum(stores) + sum(pits[0]) + sum(pits[1])
    if 2 * max(stores) > total or not any(pits[0]) or not any(pits[1]):
        stores[0] += sum(pits[0])
        stores[1] += sum(pits[1])
        pits = [[0] * m, [0] * m]
    return [m] + stores + pits[0] + pits[1], repeat


def main():
    args = sys.argv[1:]
    transport, host, port = args[0], args[1], int(args[2])
    options = dict(zip(args[3::2], args[4::2]))
    mode = options.get("--mode", "freeplay")
    wrong = int(options.get("--wrong", "0"))
    leave_after = int(options.get("--leave-after", "0"))
    silent_after = int(options.get("--silent-after", "0"))
    # An agent that gives every game up: its move is a house the board does not have.
    illegal = options.get("--illegal") == "yes"
    connection = (Tcp if transport == "tcp" else WebSocket)(host, port)
    next_id = [1]

    def send(text, ref=None):
        prefix = str(next_id[0]) + (f"@{ref}" if ref else "")
        next_id[0] += 2
        connection.send(f"{prefix} {text}")

    states = oks = errors = 0
    server_ids = []
    goodbye = False
    for line in connection.lines():
        match = COMMAND.match(line)
        if not match:
            print(f"client: unreadable line {line!r}", flush=True)
            continue
        cid, ref, cmd, rest = match.groups()
        rest = rest or ""
        if cid is not None:
            server_ids.append(int(cid))
        if cmd == "kgp":
            if "--name" in options:
                send(f'set info:name "{options["--name"]}"')
            if "--token" in options:
                send(f'set auth:token "{options["--token"]}"')
            send(f"mode {mode}")
        elif cmd == "state":
            states += 1
            numbers = board(rest)
            m = numbers[0]
            legal = [i for i in range(m) if numbers[3 + i] > 0]
            assert legal, f"a state without a legal move: {line}"
            print(f"client: state {states}", flush=True)
            if leave_after and states >= leave_after:
                print("client: leaving in the middle of a game", flush=True)
                connection.close()
                return 1
            if silent_after and states >= silent_after:
                continue
            send(f"move {m + 1 if illegal else random.choice(legal) + 1}", ref=cid)
            send("yield", ref=cid)
        elif cmd == "problem":
            numbers_text, pit = rest.split()
            after, repeat = sow(board(numbers_text), int(pit))
            if wrong > 0:
                wrong -= 1
                repeat = not repeat
            send(f"solution <{','.join(map(str, after))}> {'true' if repeat else 'false'}", ref=cid)
        elif cmd == "ok":
            oks += 1
        elif cmd == "error":
            errors += 1
            print(f"client: error {rest}", flush=True)
        elif cmd == "ping":
            send("pong", ref=cid)
        elif cmd == "set":
            print(f"client: set {rest}", flush=True)
        elif cmd == "goodbye":
            goodbye = True
            break
    ids_even = all(i % 2 == 0 for i in server_ids) and server_ids == sorted(set(server_ids))
    print(f"client: {states} states, {oks} ok, {errors} errors, even rising ids {ids_even}, "
          f"goodbye {goodbye}", flush=True)
    connection.close()
    return 0 if goodbye else 1


if __name__ == "__main__":
    sys.exit(main())
