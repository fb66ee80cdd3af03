//! Programs the server starts itself, one process a move, as KWARC's kgpc runs an agent: the
//! board goes to the program's standard input as one line of numbers, `M S N s1 … sM n1 … nM`
//! (houses a side, the mover's store, the other store, the mover's houses, the other side's
//! houses, the mover always South), and the program writes houses counted from 0 to its standard
//! output, as many as it likes: the last legal one counts. The turn ends when the program exits
//! or its time is up, when it is killed; a program that wrote no legal move gets a random one, as
//! go-kgp plays for an agent that sent none. Words that are not numbers, and illegal houses, are
//! skipped, as kgpc skips them.
//!
//! On Unix each move's program runs in a process group of its own, and when the move ends the
//! whole group is killed: children it forked (a shell's, a helper's) do not outlive the move.
//! Its [`Limits`] (CPU time, memory) are set in the child before it runs the program, as go-kgp
//! runs each agent in a container with 1 CPU and 1 GiB: a program over its memory limit fails
//! its own allocation and loses its move (a random one is played), not the machine.

use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use kalah_rules::{Move, Position, Rules};
use rand::seq::SliceRandom;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::store::AgentId;

/// How long the output a program's processes left in its pipe is read after they were killed:
/// it is there at once; only a process that left the group (and so was not killed) could keep
/// the pipe open, and it is not waited for longer.
const DRAIN: Duration = Duration::from_secs(1);

/// What a program's processes may use in a move (Unix; elsewhere nothing is limited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The memory each process may allocate, in bytes (`RLIMIT_DATA`: its heap and private
    /// mappings, not the address space it reserves, which runtimes such as the JVM's and Go's
    /// reserve far beyond what they use); `None` for no limit.
    pub memory: Option<u64>,
    /// The CPU time each process may use, in seconds (`RLIMIT_CPU`): a program with threads on
    /// several cores uses it up sooner than the move's time; `None` for no limit.
    pub cpu: Option<u64>,
}

/// A program: its name in the database and its command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its agent's row.
    pub id: AgentId,
    /// Its name: the command line as given.
    pub name: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// What each move's processes may use.
    pub limits: Limits,
}

/// Why a program's move was played for it at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    /// It could not be started.
    Start,
    /// It wrote houses, none of them legal.
    Illegal,
    /// Its time ran out before it wrote a legal house.
    Time,
    /// It used up its CPU time (`SIGXCPU`, or killed at the hard limit).
    Cpu,
    /// It ended in failure (a status other than 0, or a signal) without a legal house: a crash,
    /// or an allocation over its memory limit.
    Crash,
    /// It ended well but wrote no house.
    Nothing,
}

impl Lost {
    /// The word stored with the move ([`crate::store::MoveRow::why`]).
    pub fn word(self) -> &'static str {
        match self {
            Lost::Start => "start",
            Lost::Illegal => "illegal",
            Lost::Time => "time",
            Lost::Cpu => "cpu",
            Lost::Crash => "crash",
            Lost::Nothing => "none",
        }
    }
}

/// How a program's turn went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move played.
    pub mv: Move,
    /// `program` when the program chose it, `random` when it chose none.
    pub how: &'static str,
    /// Why the move was random.
    pub lost: Option<Lost>,
    /// What went wrong, for the log: the program could not start, or wrote nothing legal.
    pub trouble: Option<String>,
}

/// What a run of the program came to.
struct Ran {
    /// What it wrote.
    output: String,
    /// How its first process ended, if it did before its time was up.
    status: Option<ExitStatus>,
}

/// Writes the board as kgpc passes it: the mover's side as South.
pub fn board_line(position: &Position) -> String {
    let me = position.mover();
    let houses = usize::from(position.houses());
    let mut words = vec![houses.to_string(), position.store(me).to_string(), position.store(!me).to_string()];
    for side in [me, !me] {
        words.extend((0..houses).map(|i| position.house(side, i).to_string()));
    }
    words.join(" ")
}

/// Returns the last word of `output` that is a legal house (counted from 0) in `position`.
pub fn last_legal(output: &str, position: &Position) -> Option<Move> {
    let legal: Vec<Move> = position.legal_moves().collect();
    output
        .split_whitespace()
        .filter_map(|word| word.parse::<usize>().ok())
        .filter(|&index| index < usize::from(position.houses()))
        .map(Move::from_index)
        .rfind(|mv| legal.contains(mv))
}

/// Tells whether `output` holds a word that is a number: a house, legal or not.
fn wrote_a_house(output: &str) -> bool {
    output.split_whitespace().any(|word| word.parse::<i64>().is_ok())
}

/// Says how a process ended, in words: `exited with status 1`, `was killed by signal 9`.
fn ended(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("ended ({status})"),
    }
}

/// Tells whether a process was ended for its CPU time: `SIGXCPU` at the soft limit, `SIGKILL`
/// at the hard one (which the server sends too, but only after the time is up, which is told
/// apart before this is asked).
fn out_of_cpu(status: ExitStatus, limits: &Limits) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        limits.cpu.is_some() && matches!(status.signal(), Some(libc::SIGXCPU | libc::SIGKILL))
    }
    #[cfg(not(unix))]
    {
        let _ = (status, limits);
        false
    }
}

impl Program {
    /// Runs the program on `position` for at most `time` and returns its move.
    pub async fn choose(&self, position: Position, _rules: Rules, time: Duration) -> Chosen {
        let ran = self.run(&board_line(&position), time).await;
        if let Ok(Ran { output, .. }) = &ran {
            if let Some(mv) = last_legal(output, &position) {
                return Chosen { mv, how: "program", lost: None, trouble: None };
            }
        }
        let moves: Vec<Move> = position.legal_moves().collect();
        let mv = *moves.choose(&mut rand::thread_rng()).expect("a position with a move");
        let (lost, why) = match ran {
            Err(error) => (Lost::Start, format!("could not be started: {error}")),
            Ok(Ran { output, status }) => match status {
                _ if wrote_a_house(&output) => (Lost::Illegal, format!("wrote no legal house ({:?})", output.trim())),
                None => (Lost::Time, format!("wrote no legal house in its {} ms", time.as_millis())),
                Some(status) if out_of_cpu(status, &self.limits) => (
                    Lost::Cpu,
                    format!(
                        "{} without a legal house: its CPU time ({} s) ran out",
                        ended(status),
                        self.limits.cpu.unwrap_or(0)
                    ),
                ),
                Some(status) if !status.success() => {
                    let memory = self
                        .limits
                        .memory
                        .map(|m| format!(" (a crash, or an allocation over its memory limit of {} MiB)", m >> 20))
                        .unwrap_or_default();
                    (Lost::Crash, format!("{} without a legal house{memory}", ended(status)))
                }
                Some(_) => (Lost::Nothing, "wrote no house".to_string()),
            },
        };
        let trouble = format!("{} {why} for {:?}: a random move was played", self.name, board_line(&position));
        Chosen { mv, how: "random", lost: Some(lost), trouble: Some(trouble) }
    }

    /// Starts the program, gives it `board`, and returns what it wrote until its first process
    /// exited or `time` ran out; then every process of the move is killed.
    async fn run(&self, board: &str, time: Duration) -> std::io::Result<Ran> {
        let (program, args) = self.argv.split_first().ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).kill_on_drop(true);
        #[cfg(unix)]
        {
            // A group of its own, led by the program (its id is the program's pid), so that the
            // whole move can be killed at once; and its limits.
            command.process_group(0);
            unix::limit(&mut command, self.limits);
        }
        let mut child = command.spawn()?;
        let group = child.id();
        let mut stdin = child.stdin.take().expect("piped");
        let mut stdout = child.stdout.take().expect("piped");
        let line = format!("{board}\n");
        let mut output = Vec::new();
        let mut buffer = [0u8; 4096];
        let mut open = true;
        let deadline = tokio::time::sleep(time);
        tokio::pin!(deadline);
        // A program that never reads its input must still be able to answer: the line fits in
        // the pipe, and a program that ended before reading it is no error.
        tokio::select! {
            _ = stdin.write_all(line.as_bytes()) => {}
            () = &mut deadline => {}
        }
        drop(stdin);
        // Whatever it wrote before its time ran out counts. The move ends when its first process
        // ends, even if a child it started still holds the output open.
        let status = loop {
            tokio::select! {
                read = stdout.read(&mut buffer), if open => match read {
                    Ok(0) | Err(_) => open = false,
                    Ok(n) => output.extend_from_slice(&buffer[..n]),
                },
                status = child.wait() => break status.ok(),
                () = &mut deadline => break None,
            }
        };
        #[cfg(unix)]
        if let Some(group) = group {
            unix::kill_group(group);
        }
        #[cfg(not(unix))]
        let _ = group;
        let _ = child.start_kill();
        if open {
            let _ = tokio::time::timeout(DRAIN, async {
                while let Ok(n @ 1..) = stdout.read(&mut buffer).await {
                    output.extend_from_slice(&buffer[..n]);
                }
            })
            .await;
        }
        let _ = child.wait().await;
        Ok(Ran { output: String::from_utf8_lossy(&output).into_owned(), status })
    }
}

/// The process group and limits of a program's move, on Unix.
#[cfg(unix)]
mod unix {
    use super::Limits;

    /// Sets `limits` in the child `command` starts, between its fork and its exec, each clamped
    /// to the hard limit the server itself runs under (which an unprivileged process cannot
    /// raise); and no core files, so that a crash (or `SIGXCPU`) leaves nothing in the folder.
    #[allow(unsafe_code)]
    pub(super) fn limit(command: &mut tokio::process::Command, limits: Limits) {
        let wanted = [
            (libc::RLIMIT_DATA, limits.memory.map(|m| (m, m))),
            // The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
            (libc::RLIMIT_CPU, limits.cpu.map(|s| (s, s.saturating_add(1)))),
            (libc::RLIMIT_CORE, Some((0, 0))),
        ];
        // Read here, in the parent: the child only sets what was computed.
        let mut set = Vec::new();
        for (resource, wanted) in wanted {
            let Some((soft, hard)) = wanted else { continue };
            let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            // SAFETY: getrlimit writes the struct it is given, which lives through the call.
            if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
                continue;
            }
            let clamp = |x: u64| {
                let x = libc::rlim_t::try_from(x).unwrap_or(libc::RLIM_INFINITY);
                if current.rlim_max == libc::RLIM_INFINITY {
                    x
                } else {
                    x.min(current.rlim_max)
                }
            };
            set.push((resource, libc::rlimit { rlim_cur: clamp(soft), rlim_max: clamp(hard) }));
        }
        // SAFETY: the closure runs in the forked child before exec, where only async-signal-safe
        // work is sound (another thread of the server may have held a lock at the fork). It
        // allocates nothing and takes no lock: it reads the vector built above (moved in, never
        // grown) and calls setrlimit(2), a bare system call in every libc, and
        // `io::Error::last_os_error`, which reads errno into a value without allocating.
        unsafe {
            command.pre_exec(move || {
                for (resource, limit) in &set {
                    if libc::setrlimit(*resource, limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }

    /// Kills every process of the group `group` (the program's pid, which leads it).
    ///
    /// When the program has already ended and been reaped, the group lives on while any of its
    /// processes does, and the kernel does not hand its number to a new process meanwhile; once
    /// the group is empty the signal finds nothing (ESRCH), unless within the moment since, the
    /// whole range of process ids went round and a new process took this one as its group's.
    #[allow(unsafe_code)]
    pub(super) fn kill_group(group: u32) {
        let Ok(group) = libc::pid_t::try_from(group) else { return };
        if group > 1 {
            // SAFETY: kill(2) takes plain numbers; a negative one names a process group.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
    }
}

/// Splits a command line into words: spaces separate, single or double quotes keep spaces
/// within a word, a backslash keeps the next character.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                let next = chars.next().ok_or_else(|| format!("{line:?} ends in a backslash"))?;
                word.get_or_insert_with(String::new).push(next);
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("{line:?} has an unclosed quote"));
    }
    words.extend(word);
    if words.is_empty() {
        return Err("an empty command: give the program and its arguments, e.g. \"python3 agent.py\"".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_goes_as_kgpc_writes_it_the_mover_as_south() {
        let rules = Rules::preset("kgp", 3, 3).unwrap();
        let position: Position = "2,4,5:0/6,7,8:1/N".parse().unwrap();
        // North moves: its houses and store come first.
        assert_eq!(board_line(&position), "3 1 0 6 7 8 2 4 5");
        let start = Position::start(&rules);
        assert_eq!(board_line(&start), "3 0 0 3 3 3 3 3 3");
    }

    #[test]
    fn the_last_legal_house_counts_and_other_words_are_skipped() {
        let position: Position = "0,4,5:0/6,7,8:1/S".parse().unwrap();
        assert_eq!(last_legal("1 2 x 0 7", &position), Some(Move::from_index(2)));
        assert_eq!(last_legal("0 -1 3", &position), None);
        assert_eq!(last_legal("", &position), None);
    }

    #[test]
    fn command_lines_split_into_words_with_quotes() {
        assert_eq!(split_command("python3 agent.py --depth 4").unwrap(), ["python3", "agent.py", "--depth", "4"]);
        assert_eq!(split_command("'my agent' \"a b\" c\\ d ''").unwrap(), ["my agent", "a b", "c d", ""]);
        assert!(split_command("a 'b").unwrap_err().contains("unclosed quote"));
        assert!(split_command("  ").unwrap_err().contains("empty command"));
    }

    #[tokio::test]
    async fn a_program_that_goes_on_thinking_is_killed_at_its_time_and_its_last_move_counts() {
        let rules = Rules::preset("kgp", 6, 6).unwrap();
        let sleeper = Program {
            id: 1,
            name: "sleeper".into(),
            argv: ["sh", "-c", "echo 9; echo 2; exec sleep 600"].map(String::from).to_vec(),
            limits: Limits::default(),
        };
        // Long by construction: the program never ends by itself, so only the kill ends the turn.
        let chosen = sleeper.choose(Position::start(&rules), rules, Duration::from_secs(3)).await;
        assert_eq!((chosen.mv, chosen.how, chosen.trouble), (Move::from_index(2), "program", None));
        let missing = Program {
            id: 2,
            name: "missing".into(),
            argv: vec!["/nonexistent/agent".into()],
            limits: Limits::default(),
        };
        let chosen = missing.choose(Position::start(&rules), rules, Duration::from_secs(3)).await;
        assert_eq!((chosen.how, chosen.lost), ("random", Some(Lost::Start)));
        assert!(chosen.trouble.unwrap().starts_with("missing could not be started: "));
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_move_lost_says_why_and_the_move_ends_with_the_program_not_its_children() {
        let rules = Rules::preset("kgp", 6, 6).unwrap();
        let shell = |script: &str| Program {
            id: 1,
            name: "sh".into(),
            argv: ["sh", "-c", script].map(String::from).to_vec(),
            limits: Limits { memory: Some(256 << 20), cpu: Some(60) },
        };
        let start = Position::start(&rules);
        // Each long by construction: only the program's end, not its time, ends the move.
        let time = Duration::from_secs(600);
        for (script, lost, says) in [
            ("echo 7 x; echo 12", Lost::Illegal, "wrote no legal house (\"7 x\\n12\")"),
            ("exit 0", Lost::Nothing, "wrote no house"),
            ("exit 3", Lost::Crash, "exited with status 3 without a legal house (a crash, or an allocation over its memory limit of 256 MiB)"),
            ("kill -SEGV $$", Lost::Crash, "was killed by signal 11"),
            ("kill -XCPU $$", Lost::Cpu, "its CPU time (60 s) ran out"),
        ] {
            let chosen = shell(script).choose(start, rules, time).await;
            assert_eq!((chosen.how, chosen.lost), ("random", Some(lost)), "{script}");
            let trouble = chosen.trouble.unwrap();
            assert!(trouble.contains(says) && trouble.ends_with("a random move was played"), "{trouble}");
        }
        // A child that holds the output open does not hold the move: it ends with the shell.
        let started = std::time::Instant::now();
        let chosen = shell("sleep 600 & echo 3").choose(start, rules, time).await;
        assert_eq!((chosen.mv, chosen.how), (Move::from_index(3), "program"));
        assert!(started.elapsed() < Duration::from_secs(300), "{:?}", started.elapsed());
        // Out of time: killed, and what it wrote before counts for nothing when none was legal.
        let chosen = shell("echo 9; exec sleep 600").choose(start, rules, Duration::from_millis(300)).await;
        assert_eq!(chosen.lost, Some(Lost::Illegal));
        let chosen = shell("exec sleep 600").choose(start, rules, Duration::from_millis(300)).await;
        assert_eq!(chosen.lost, Some(Lost::Time));
    }
}
