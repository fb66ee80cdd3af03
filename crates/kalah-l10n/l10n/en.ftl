# The words of kalah's pages in English: the served page and the static site (kalah-web's
# web/), the board (kalah-board), the KGP server's page (kalah-kgp-server) and the errors the
# API returns for a person to read. docs/l10n.md says how to add a language.

## The language, as the language switch names it (in its own language).

language-name = English
language-choose = Language

## The page (index.html, app.js, backend.js, local.js).

## The board (kalah-board's board.js).

## Games between friends (friends.js).

friends-down = The server does not answer: the page reconnects by itself when it is back.
friends-also = You are also playing this game on another device or tab.
friends-copy = Copy
# $label: the link's name, e.g. "Watch link".
friends-link-copied = { $label } copied.
friends-link-label = { $label }:
friends-selected = Selected: press Ctrl+C (⌘C) to copy.
friends-refused-watching = Only the players of this game can do that; this page watches it.
friends-refused-changed = The game changed meanwhile; here it is as it is now.
# $side: South or North.
friends-you-play = You play { $side ->
        [South] South
       *[North] North
    }.
friends-watching = You are watching this game.
friends-takeback-asked = Your friend asks to take back their last move.
friends-takeback-waiting = You asked to take back your last move; waiting for your friend.
friends-takeback-yours-accepted = Your friend accepted your takeback: your last move is taken back.
friends-takeback-yours-refused = Your friend refused your takeback.
friends-takeback-you-accepted = You accepted the takeback: your friend plays their move again.
friends-takeback-you-refused = You refused the takeback.
# Said to a spectator. $side: South or North; $answer: accepted or refused.
friends-takeback-answered = { $side ->
        [South] South's
       *[North] North's
    } takeback was { $answer ->
        [accepted] accepted
       *[refused] refused
    }.
friends-send = Send your friend the invitation link (under the buttons).
friends-rematch-open = Play the rematch
friends-rematch-offered = Rematch offered; waiting for your friend.
friends-rematch-accept = Accept the rematch
friends-rematch = Rematch (sides swapped)
friends-takeback-accept = Accept takeback
friends-takeback-refuse = Refuse
friends-resign = Resign
friends-resign-confirm = Resign this game?
friends-invitation-link = Invitation for your friend
friends-watch-link = Watch link
friends-links = Invitation and watch links
friends-seat-elsewhere = Continue on another device
friends-seat-warning = This link is your seat: whoever has it plays for you. Open it only on your own devices.
friends-seat-link = Your seat link
# Who is here: $side South or North, $here yes or no.
friends-presence = { $side ->
        [South] South
       *[North] North
    } is { $here ->
        [yes] here
       *[no] away
    }
# $side: one side's presence (friends-presence).
friends-presence-one = { $side }.
# $south, $north: each side's presence (friends-presence).
friends-presence-both = { $south } · { $north }.
friends-rematch-failed = The rematch cannot be opened: { $error }
# The status a player reads; $name: the opponent's name in a game the lobby paired.
friends-status-handicap = You decide the handicap: keep the board, or move one seed
friends-status-handicap-friend = Your friend decides the handicap
friends-status-handicap-name = { $name } decides the handicap
friends-status-pie = Your move: sow a house, or swap sides
friends-status-pie-friend = Your friend's move (they may swap sides)
friends-status-pie-name = { $name }'s move (they may swap sides)
friends-status-move = Your move
friends-status-move-friend = Your friend's move
friends-status-move-name = { $name }'s move
friends-own-invitation = This is the invitation you sent: keep it for your friend. You keep your own seat here.
friends-other-seat = This link holds the other seat of a game you play here: you keep your own seat.
# A game in progress in the list: $rules, $who (one of the friends-entry-… below), $turn (its status).
friends-entry = { $rules }, { $who }: { $turn }
friends-entry-people = two people at one page
friends-entry-engine = against the engine
friends-entry-player = against your friend, you play { $side ->
        [South] South
       *[North] North
    }
friends-entry-friends = between friends
# $side: South or North.
friends-entry-to-move = { $side ->
        [South] South
       *[North] North
    } to move
friends-games = Your games in progress ({ $count })
friends-games-listed = You have games in progress: they are listed under the buttons.

## The lobby (lobby.js).

lobby-summary = Lobby: play someone
lobby-name = Your name
lobby-name-field =
    .placeholder = 3 to 20 letters, digits, - or _
lobby-pick = Pick this name
lobby-guest = Play as a guest
lobby-no-password = No password: this browser keeps your name, and a link carries it to your other devices.
lobby-sign-in-summary = Your name has a password? Sign in
lobby-sign-in-name = Name
lobby-sign-in-password = Password
lobby-sign-in = Sign in
# "You play as NAME." around the name.
lobby-you-play-as = You play as
lobby-you-play-as-end = .
lobby-carry-summary = Your name on another device
lobby-carry-warning = This link is your name: whoever has it plays as you. Open it only on your own devices.
lobby-carry-field =
    .aria-label = The link that carries your name
lobby-carry-copy = Copy
lobby-carry-copied = The link that carries your name was copied.
lobby-password = Or a password (optional, 8 characters or more)
lobby-password-set = Set the password
lobby-password-done = Your password is set: sign in with your name and it on any device.
lobby-forget = Forget my name here
lobby-forget-confirm = Forget your name in this browser? Keep the link that carries it first, or the name is lost.
lobby-board = Board
lobby-rules-empty-capture = Kalah(6,4), empty capture
lobby-rules-pie = Kalah(6,6), pie rule
lobby-clock = Clock
lobby-clock-option-none = none
lobby-clock-option = { $minutes } min + { $increment } s
lobby-colour = You play
lobby-colour-random = either side
lobby-colour-south = South (first)
lobby-colour-north = North
lobby-rated-box = Rated
lobby-offer = Offer a challenge
lobby-quick = Quick pairing
lobby-level = Or play the engine, rated: level
lobby-engine = Play the engine
lobby-challenges = Open challenges
lobby-challenges-none = None open: offer one.
lobby-playing = Being played now
lobby-playing-none = No game is being played.
lobby-find = Find a player
lobby-find-go = Their games
lobby-leaderboard = Leaderboard
lobby-family-other = other boards
lobby-leaderboard-none = No rating is settled yet (a rating is provisional, shown with ?, until it is sure).
# A challenge's clock.
lobby-clock-none = no clock
lobby-clock-minutes = { $minutes } min
lobby-clock-seconds = { $seconds } s
# $base: lobby-clock-minutes or lobby-clock-seconds.
lobby-clock-increment = { $base } + { $increment } s
lobby-carried = You play as { $name } in this browser now.
lobby-carried-none = The link carries no name: { $error }
lobby-name-unknown = Your name { $name } is not known here any more: pick another.
lobby-guest-only = (guest: unrated games only)
lobby-rating-first = Rating 1500? in each board family until your first rated game
lobby-challenge-open = Your challenge is open: it waits here for { $minutes } minutes.
lobby-game-begins = Your game against { $name } begins.
lobby-game-begins-opponent = Your game against your opponent begins.
lobby-new-ratings = New ratings: { $first } { $firstRating }, { $second } { $secondRating }
# $side: south or north.
lobby-wants = { $name } plays { $side ->
        [south] South
       *[north] North
    }
lobby-rated = rated
lobby-casual = casual
lobby-withdraw = Withdraw
lobby-accept = Accept
lobby-leader-games = ({ $count ->
        [one] { $count } game
       *[other] { $count } games
    })
# A game's outcome for the player whose page it is.
lobby-outcome = { $outcome ->
        [playing] playing
        [aborted] aborted
        [draw] draw
        [won] won
       *[lost] lost
    }
lobby-chart = Rating history: from { $from } to { $to }
lobby-player-guest = { $name } (guest)
lobby-player-rating = { $family }: { $rating }
lobby-player-rating-games = { $family }: { $rating } after { $count ->
        [one] { $count } rated game
       *[other] { $count } rated games
    }
lobby-player-history = Rating after each rated game: { $ratings }
lobby-player-history-none = No rated game yet.
lobby-player-against = against { $name }
lobby-player-games = Games
lobby-player-close = Close

## Searches drawn (searches.js).

searches-summary = Searches: minimax and alpha-beta, drawn
searches-search = Search
searches-option-minimax = minimax
searches-option-alphabeta = alpha-beta
searches-option-ordered = alpha-beta, ordered
searches-depth = Depth
searches-draw = Draw
searches-about = Depth 1 to 6; a tree of more than 5000 calls is counted, not drawn. Values in seeds for the side to move; Max moves for it, Min for the other side.
searches-column-search = Search
searches-column-max = Max calls
searches-column-min = Min calls
searches-column-total = Total
searches-steps =
    .aria-label = Step through the calls in the order made
searches-first =
    .aria-label = First call
searches-back = ◀ Back
searches-next = Next ▶
searches-last =
    .aria-label = Last call
searches-expand = Expand all
searches-fold = Fold all
searches-tree =
    .aria-label = The calls of Max and Min, each under its caller, in the order made
# A search's name; $search: minimax, alphabeta or ordered.
searches-name = { $search ->
        [minimax] minimax
        [alphabeta] alpha-beta
       *[ordered] alpha-beta, ordered
    }
searches-root = root
searches-house = house { $house }
# A call's value; $end: evaluated (at the depth), finished (the game is over), or searched.
searches-value = { $end ->
        [evaluated] value { $value } (evaluated)
        [finished] value { $value } (game over)
       *[other] value { $value }
    }
# The houses a cut leaves: $count of them, $houses listed.
searches-cut-houses = { $count ->
        [one] house
       *[other] houses
    } { $houses }
searches-cut-beta = β cut: α { $alpha } ≥ β { $beta }, { $houses } not searched
searches-cut-alpha = α cut: β { $beta } ≤ α { $alpha }, { $houses } not searched
searches-path = after { $houses }
searches-path-root = the root
searches-at = Call { $call } of { $calls }
# $call: the call described; $path: searches-path or searches-path-root; $depth: sowings left.
searches-call = { $call }; { $path }, { $depth ->
        [one] { $depth } sowing
       *[other] { $depth } sowings
    } left
searches-here-caption = This position, depth { $depth }
searches-game-caption = Average over the game so far ({ $positions ->
        [one] { $positions } position
       *[other] { $positions } positions
    }), depth { $depth }
# $reason: the server's (in English); $search, $depth, $limit: what it says.
searches-untraced = No tree: { $reason }.
searches-best-none = no move (the game is over)
# $count: the number of calls, $calls: it written out.
searches-drawn = { $search } to depth { $depth }: { $count ->
        [one] { $calls } call
       *[other] { $calls } calls
    }, value { $value } for the side to move, best { $best }.
searches-searching = Searching…

## The KGP server's page (kalah-kgp-server's web/).

kgp-title = kalah kgp serve: games and results
kgp-heading = Kalah Game Protocol server
# The introduction, around the commands' names: "Games stored by kalah kgp serve and kalah kgp
# tournament. Agents connect over KGP at /socket or the TCP port."
kgp-intro-stored = Games stored by
kgp-intro-and = and
kgp-intro-connect = . Agents connect over KGP at
kgp-intro-port = or the TCP port.
kgp-results = Results
kgp-scope = Of
kgp-scope-every = every game stored
kgp-cross = Who beat whom
kgp-cross-note = Wins, draws and losses of the row's agent against the column's.
kgp-games = Games
kgp-agent = Agent
kgp-agent-every = every agent
kgp-column-game = game
kgp-column-south = south
kgp-column-north = north
kgp-column-result = result
kgp-column-moves = moves
kgp-column-board = board
kgp-column-tournament = tournament
kgp-replay = Game
kgp-board =
    .aria-label = Kalah board
kgp-first =
    .aria-label = The start
kgp-back =
    .aria-label = One move back
kgp-ply =
    .aria-label = Move
kgp-forward =
    .aria-label = One move on
kgp-last =
    .aria-label = The end
kgp-download = Download the record
kgp-standings-rank = rank
kgp-standings-agent = agent
kgp-standings-games = games
kgp-standings-points = points
kgp-standings-wins = wins
kgp-standings-draws = draws
kgp-standings-losses = losses
kgp-standings-elo = Elo (95%)
kgp-standings-none = No game has ended yet.
# An Elo rating or margin with no bound.
kgp-infinite = inf
# A game's state as stored.
kgp-state = { $state ->
        [ongoing] ongoing
        [south-won] south-won
        [north-won] north-won
        [draw] draw
        [south-resigned] south-resigned
        [north-resigned] north-resigned
        [aborted] aborted
       *[other] { $state }
    }
kgp-games-count = { $count ->
        [one] { $count } game
       *[other] { $count } games
    }.
kgp-games-of = { $count ->
        [one] { $count } game
       *[other] { $count } games
    } of { $agent }.
kgp-replay-title = Game { $id }
kgp-replay-players = { $south } (South) against { $north } (North), { $rules }
# $side: south or north.
kgp-side = { $side ->
        [south] south
       *[north] north
    }
# How a move was chosen for its agent: random (out of time), auto (the only move).
kgp-how = { $how ->
        [random] random
        [auto] auto
       *[other] { $how }
    }
kgp-millis = { $millis } ms
kgp-replay-status = After { $ply } of { $moves } moves
kgp-replay-status-mover = After { $ply } of { $moves } moves, { $side ->
        [south] south
       *[north] north
    } to move
kgp-replay-ended = { $status }: { $result }
kgp-tournament = tournament { $id } ({ $boards }, { $games ->
        [one] { $games } game
       *[other] { $games } games
    })
kgp-tournament-playing = tournament { $id } ({ $boards }, { $games ->
        [one] { $games } game
       *[other] { $games } games
    }, playing)
kgp-unreadable = The server's data cannot be read: { $error }

## Errors the API returns (kalah-web).
# Each error's `code` is its message here; the page shows the message in its language, and a
# request that accepts another language gets `error` in it.

error-bad = the request cannot be read as it was written
error-over = the game is over: no more moves can be played
error-engines-seat = { $side ->
        [north] North
       *[south] South
    } is played by the engine: ask the engine to move
error-persons-seat = { $side ->
        [north] North
       *[south] South
    } is played by a person: it moves when its player does
error-not-yours = { $side ->
        [north] North
       *[south] South
    } is the other player's seat: only its holder moves for it
error-not-a-player = only the players of this game may change it: this page watches it (a player's link holds their seat)
error-wrong-token = the token holds no seat of this game: use the link you were given
error-unowned = this game was kept by an earlier kalah without seat tokens: it can be watched and its record loaded into a new game, not changed
error-rematch-not-over = the game is not over: a rematch follows its end
error-rematch-begun = the rematch has begun already
error-takeback-rated = a rated game has no takebacks: its moves count as played
error-takeback-no-move = you have no move to take back
error-takeback-asked = a takeback is already asked for
error-takeback-none = no takeback is asked for
error-takeback-yours = the takeback is yours: your opponent answers it
error-takeback-nothing = there is nothing to take back
error-takeback = the takeback cannot be done now
error-thinking = the engine is thinking
error-changed = the game changed while the engine was thinking (a move, an undo, or it was closed): ask again
error-stale = the move was made on version { $made } of the game, which is at version { $now } now: look again
error-illegal = the rules do not allow this move
error-history = there is no such move in the game's history
error-ended = the game was { $how ->
        [time] lost on time
        [resigned] lost by resigning
        [aborted] aborted
       *[other] ended
    }: its moves stay as they were played; start a new game or load its record
error-friends-step = a game between friends steps back only by a takeback the opponent accepts
error-no-help = a game between friends gets no hint or analysis while it goes on: ask once it is over
error-rated = a rated game is played as it goes: no undo or redo, and no hint or analysis until it is over
error-kept = a finished game between friends belongs to both players: it stays in the archive
error-begun = both players have moved: resign instead (a game between friends is deleted only before it begins)
error-no-friends = games against a friend need kalah serve: this page plays with no server
error-stopping = the server is stopping: ask again in a moment
error-no-game = there is no game “{ $id }”: it was deleted, or never was
error-store = the game database does not answer: nothing was changed; try again
error-changed-elsewhere = the game changed through another server meanwhile and is at version { $version } now: nothing of this request was done; look again
error-full = the server holds its most games ({ $most }): close one or try again later
error-engine-failed = the engine's search failed
error-engines-busy = the server is busy: every engine is thinking; ask again in a second
error-nothing-here = there is nothing at this address
error-too-many = too many requests from your address: wait a moment and try again
error-other-site = another web site cannot change games here
error-no-challenge = no open challenge of that name: it was accepted, withdrawn or expired
error-challenge-own = this challenge is yours: another player accepts it (withdraw it instead)
error-challenge-not-yours = this challenge is another player's: only its maker withdraws it
error-guest-rated = a guest plays unrated games only: pick a name to play rated
error-challenges-too-many = you have 3 challenges open already: withdraw one, or wait until one is accepted or expires
error-name-malformed = a name is 3 to 20 letters (a to z), digits, - or _, beginning with a letter
error-name-reserved = the name { $name } is kept for the server (names beginning with guest, engine, removed, admin, kalah or anonymous): pick another
error-name-taken = the name { $name } is taken (names differ in more than case): pick another
error-no-guest-name = no guest's name is free: try again
error-no-such-secret = no player has this secret: pick a name, or open the link that carries yours
error-guest-password = a guest's name has no password: pick a name of your own
error-password-length = a password has 8 to 200 characters, not { $length }
error-name-removed = the name { $name } was removed
error-sign-in = the name or the password is wrong (or the name has no password)
error-no-player = no player is named “{ $name }”
