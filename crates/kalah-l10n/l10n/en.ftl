# The words of kalah's pages in English: the served page and the static site (kalah-web's
# web/), the board (kalah-board), the KGP server's page (kalah-kgp-server) and the errors the
# API returns for a person to read. docs/l10n.md says how to add a language.

## The language, as the language switch names it (in its own language).

language-name = English
language-choose = Language

## The page (index.html, app.js, backend.js, local.js).

# The sides and the players, as the page names them.
page-south = South
page-north = North
page-you = you
page-your-friend = your friend
page-a-person = a person
page-engine-level = engine level { $level }
# A side with its player, where the engine plays it: "North (engine level 3)".
page-side-engine = { $side } (engine level { $level })
# An action of a move list or a hint: a house's number, or these.
page-action-swap = swap
page-action-keep = keep
page-house = house { $house }

# The page's parts (index.html).
page-title = Kalah
page-board-section =
    .aria-label = Board
page-board =
    .aria-label = Kalah board
page-controls =
    .aria-label = Game controls
page-study-section =
    .aria-label = Study the position
page-loading = Loading…
page-retry = Try again
page-start-new = Start a new game
page-play-again = Play again
page-end-new = New game…
page-legend-south = South's last turn
page-legend-north = North's last turn
page-legend-from = sown from
page-legend-last = last seed
page-legend-captured = capture
page-legend-extra = extra move
page-swap = Swap sides (pie rule)
page-engine-go = Engine, move
page-keep = Keep the board (no handicap)
page-eval =
    .title = Evaluation: South's expected final lead
page-eval-south-ahead = ◀ South ahead
page-eval-north-ahead = North ahead ▶
page-eval-bar =
    .aria-label = Evaluation bar: South's share is green, North's purple
page-new = New game
page-undo = Undo
page-take-back = Take back
page-redo = Redo
page-hint = Hint
page-solve = Solve
page-games = Your games in progress
page-language =
    .aria-label = Language
page-sowing = Sowing
page-speed-none = not animated
page-speed-slow = slow
page-speed-normal = normal
page-speed-fast = fast
page-evaluation = Evaluation
page-sound = Sound
page-theme = Theme
page-theme-auto = as the system
page-theme-light = light
page-theme-dark = dark
page-moves = Moves
page-moves-list =
    .aria-label = Move list: choose one to see the position after it
page-save = Save game
page-load = Load game
page-link = Link to this position
page-link-text =
    .aria-label = Link to this position
page-explorer = Explorer: every move with perfect play
page-explorer-move = Move
page-explorer-value = Value
page-explorer-result = Result
page-explorer-note = Note
page-keys = Keys:
page-keys-sow = sow a house;
page-keys-step = step through the moves;
page-keys-and = and
page-keys-reach = reach everything.

# The new game's form (index.html, app.js).
page-form-title = New game
page-form-board = Board
page-form-houses = Houses a side
page-form-seeds = Seeds a house
page-form-rules = Rules
page-form-preset = Preset
page-form-capture = Capture
page-form-end = End
page-form-leftover = Leftover seeds go to
page-form-direction = Direction
page-form-sowing = Sowing
page-form-majority = Ends once a store holds more than half
page-form-pie = Pie rule (North may swap)
page-form-handicap = Handicap (North may move one seed first)
page-form-players = Players
page-form-south = South (first player)
page-form-north = North (second player)
page-form-clock = Clock for each player
page-form-clock-none = none
page-form-clock-minute = 1 min
page-form-clock-move = { $minutes } min + { $seconds } s a move
page-form-fair = Fair start: perfect players draw (optional)
page-form-start-position = Start position (optional)
page-form-start-input =
    .placeholder = e.g. 4,4,4,4,4,4:0/4,4,4,4,4,4:0/S
page-form-start = Start
page-form-cancel = Cancel
page-error-detail = The server's own words
page-leave-title = A rated game is being played
page-leave-text = It counts for your rating and is never deleted. Resign it (a loss), or keep it going: it waits under “Your games in progress”, and its clock runs.
page-leave-resign = Resign it
page-leave-keep = Keep it going
page-leave-cancel = Cancel
page-form-as-chosen = (as chosen below)
page-form-none = (none)
page-form-friend = a friend (invite by link)
page-form-fair-group = { $rules }: { $count } starts
# A store in a fair start's seed shifts: "S1>N-store".
page-fair-store = store
page-form-not-number = that is not a number
page-form-empty = it is empty
page-form-out-of-range = { $text } is out of range
page-form-not-whole = { $text } is not a whole number
page-form-problem = { $what }: { $wrong }; write a whole number from { $min } to { $max }.
# The presets and the engine's levels of the form, by their names.
page-preset-standard = capture only when the opposite house holds seeds; ends when either side is empty
page-preset-empty-capture = capture even when the opposite house is empty (Irving, Donkers & Uiterwijk)
page-preset-assignment = standard, but the game ends only when the player to move has no seeds
page-preset-seed-on = relay sowing: a last seed in a non-empty house sows on; no captures
page-preset-clockwise = standard captures, seeds sown clockwise
page-preset-kgp = standard, and the game ends once a store holds more than half of all seeds
page-preset-mkagent = the Manchester agents' game: Kalah(7,7), pie rule, no extra move on the first move
page-level-1 = 1: looks one sowing ahead
page-level-2 = 2: three sowings
page-level-3 = 3: six sowings
page-level-4 = 4: twelve sowings
page-level-5 = 5: as deep as the time limit allows
# The words of the rules, as the form's choices and the rules line show them.
page-rule-standard = standard
page-rule-empty = empty
page-rule-none = none
page-rule-side-empty = side-empty
page-rule-mover-stuck = mover-stuck
page-rule-owner = owner
page-rule-emptier = emptier
page-rule-discard = discard
page-rule-ccw = ccw
page-rule-cw = cw
page-rule-single = single
page-rule-relay = relay
page-rule-empty-capture = empty-capture
page-rule-assignment = assignment
page-rule-seed-on = seed-on
page-rule-clockwise = clockwise
page-rule-kgp = kgp
page-rule-mkagent = mkagent
page-rule-majority-ends = majority-ends
page-rule-no-first-extra = no-first-extra
page-rule-pie = pie
page-rule-name-empty-capture = empty capture
page-rule-name-pie = pie rule
page-rule-handicap = handicap
page-rule-capture = capture
page-rule-end = end
page-rule-leftover = leftover
page-rule-direction = direction
page-rule-sowing = sowing

# The rules, in short (docs/rules.md).
page-rules = Rules
page-rules-board = The board has a row of houses for each player and a store at each end. South (the first player) owns the bottom row and the store on the right, North the top row and the store on the left.
page-rules-sow = A move takes all the seeds of one of your houses and sows them one by one counter-clockwise into the following houses and your own store, skipping your opponent's store.
page-rules-extra = If the last seed lands in your own store, you get an extra move: you move again.
page-rules-capture = If the last seed lands in an empty house of your own and the opposite house holds seeds, you capture: both go to your store.
page-rules-end = The game ends as soon as one side's houses are all empty; each player then adds the seeds left on their own side to their own store.
page-rules-win = The player with more seeds in their store wins; equal stores are a draw.
page-rules-pie = With the pie rule, after South's first turn North may swap sides instead of moving.
page-rules-handicap = With a handicap, before the first move North may move one seed from any house to any other, or keep the board.

# What the page says about the game (app.js).
page-status-to-move = { $who } to move
page-status-pie = { $who } to move: sow a house, or swap sides
page-status-handicap = { $who } decides the handicap: keep the board, or move one seed
page-status-aborted = Game aborted: { $side } did not make a first move in time. No result.
page-status-lost-on-time = Game over: { $loser } ran out of time; { $winner } wins.
page-status-resigned = Game over: { $loser } resigned; { $winner } wins.
page-status-won = Game over: South { $south }, North { $north }. { $winner } wins by { $margin ->
        [one] { $margin } seed
       *[other] { $margin } seeds
    }.
page-status-draw = Game over: South { $south }, North { $north }. The game is a draw.
page-your-move = Your move
page-your-move-pie = Your move: sow a house, or swap sides
page-your-handicap = You decide the handicap: keep the board, or move one seed
page-thinking = { $status } (thinking…)
page-waiting = { $status } ({ $why })
page-waiting-earlier = an earlier position: → or the move list steps forward
page-waiting-paused = press “Engine, move” to let it play
page-rules-line = { $rules } · South: { $south } · North: { $north }
page-clock =
    .aria-label = { $side ->
        [South] South's clock
       *[North] North's clock
    }
page-busy-retrying = The server is busy, retrying…
page-no-eval-rated = No evaluation while a rated game goes on
page-no-eval-friends = No evaluation while a game between friends goes on
page-eval-off = Evaluation off
page-evaluating = Evaluating…
page-eval-paused = Evaluation paused: the server is busy
page-eval-draw = a draw
page-eval-wins = { $side } wins by { $lead }
page-eval-final = Final: { $outcome }
page-eval-solved = Solved ✓: { $outcome } with perfect play
page-eval-even = Even
page-eval-lead = { $side } +{ NUMBER($lead, minimumFractionDigits: 2, maximumFractionDigits: 2) }
page-eval-depth = { $who } (depth { $depth })
page-eval-depth-best = { $who } (depth { $depth }; best for { $side }: { $what })

# The end of a game (app.js).
page-end-you-resigned = You resigned.
page-end-friend-resigned = Your friend resigned: you won.
page-end-friend-resigned-name = { $name } resigned: you won.
page-end-resigned = { $side } resigned: { $winner } won.
page-end-you-lost-on-time = You lost on time.
page-end-friend-out-of-time = Your friend ran out of time: you won.
page-end-friend-out-of-time-name = { $name } ran out of time: you won.
page-end-out-of-time = { $side } ran out of time: { $winner } won.
page-end-draw = A draw. { $south }–{ $north }.
page-end-you-won = You won { $own }–{ $theirs }.
page-end-you-lost = You lost { $own }–{ $theirs }.
page-end-won = { $winner } won. { $south }–{ $north }.
page-end-winner = { $side } ({ $player })

# The last move, said under the board (app.js).
page-last-sowed = { $side } sowed house { $house }
page-last-relays = , relaying { $count ->
        [one] { $count } time
       *[other] { $count } times
    }
page-last-captured = {" "}and captured { $count ->
        [one] { $count } seed
       *[other] { $count } seeds
    }
page-last-extra = : extra move, { $side } moves again
page-last-ended = : that ends the game
page-last-swapped = { $side } swapped sides: the players changed places, North is to move
page-last-kept = North kept the board as it is (no handicap move)
page-last-handicap = North moved one seed from { $from } to { $to } (handicap)
page-sentence = { $text }.
page-handicap-picked = Moving a seed from { $house }: choose the house it goes to.

# The move list (app.js).
page-moves-start = Start
page-moves-start-label = The start
page-move-label = { $number }. { $side } { $action }
page-move-captures = , captures { $count }
page-move-extra = , extra move

# Hint, solve, explorer (app.js).
page-hint-thinking = Thinking about a hint…
page-hint-exact = exactly { $value }
page-hint-said = Hint for { $side }: { $what } (worth { $value } seeds to { $side }, depth { $depth }).
page-solving = Solving…
page-solve-draw = a draw
page-solve-wins = { $side } wins by { $margin }
page-solve-best = ; best for { $side }: house { $house }
page-solved = Solved: value { $value } for South, { $outcome } with perfect play{ $best }.
page-not-solved = Not solved within the time: South gets from { $lower } to { $upper }.
page-explorer-not-now = Not while a game between friends or a rated game goes on.
page-explorer-solving = Solving every move…
page-explorer-busy = The server is busy: open the explorer again in a moment
page-explorer-waiting = Every search of the server is busy: asking again in a moment…
page-verdict-win = win by { $value }
page-verdict-loss = loss by { $value }
page-verdict-draw = draw
page-explorer-range = { $lower } to { $upper }
page-explorer-unknown = unknown
page-explorer-unsettled = { $result ->
        [win] win
        [loss] loss
       *[draw] draw
    } (not settled)
page-explorer-best = ★ best
page-explorer-throws = ✗ throws away the { $what ->
        [win] win
       *[draw] draw
    }
page-explorer-again = moves again
page-explorer-caption = Final store difference for { $side }, to move
page-explorer-book = from the opening book
page-explorer-millis = solved in { NUMBER($seconds, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
page-explorer-fair = a fair start, a proven draw; the moves after { NUMBER($seconds, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
page-explorer-over = The game is over: { $verdict } for { $side }.
page-explorer-exact = Exact ✓: { $verdict } for { $side } with perfect play ({ $from }).
page-explorer-open = Not every move is settled in the time: { $side } gets { $lower } to { $upper } ({ $from }).
page-explorer-line = Best line: { $line }

# Save, load, link (app.js).
page-cannot-save = cannot save: { $error }
page-loaded = Loaded { $file }.
page-loaded-warning = Loaded { $file }; warning: { $warnings }
page-cannot-load = cannot load { $file }: { $error }
page-link-copied = Link copied.

# Opening the page (app.js, backend.js, local.js).
page-lobby-cannot-open = The lobby cannot open: { $error }
page-no-such-game = There is no such game.
page-link-not-here = The link's game is not in this browser: { $error }.
page-link-no-game = The link names no game on this server: it was mistyped, or the game was deleted.
page-link-refused = The link's game cannot be played: { $error }; { $kept ->
        [yes] here is your game as it was
       *[no] here is a new game
    }.
page-last-gone = Your last game cannot be taken up: { $error }. This is a new one.
page-last-deleted = Your last game is no longer on the server (it was deleted); this is a new one.
page-seconds = { $count ->
        [one] { $count } second
       *[other] { $count } seconds
    }
page-cannot-start-retry = Cannot start: { $error }. Trying again in { $wait }.
page-cannot-start = cannot start: { $error }
page-server-down = The server does not answer: it may have stopped or the network is down.
page-engine-time-range = engine-time in the address takes 1 to 60000 ms, not { $asked }: the engine takes { $used } ms.
page-engine-time-server = engine-time in the address is for the engine in the browser: this server's engine takes the time it was started with.
page-changed = the game changed while the engine was thinking
page-kept-unreadable = its kept data cannot be read ({ $error }); it was set aside
page-not-in-browser = there is no game { $id } in this browser: start a new one
page-no-request = no such request in this browser: { $method } { $path }

# The engine's benchmark page (bench.html, bench.js).
page-bench-title = Kalah: the engine's benchmark in this browser
page-bench-heading = The engine's benchmark in this browser
page-bench-about = The positions of “kalah bench”, searched in the page's Web Worker on one thread to the depth of “?depth=” (13 by default, as “kalah bench”). At depth 13 the nodes must equal the native signature.
page-bench-running = Running…
page-bench-result = depth { $depth }: { $nodes } nodes in { $millis } ms, { $nps } nodes/s
page-bench-right = ; the signature is right
page-bench-wrong = ; WRONG: the signature is { $signature }
page-bench-failed = the benchmark failed: { $error }

## The board (kalah-board's board.js).

board-south = South
board-north = North
board-store-south = South's store
board-store-north = North's store
board-house-south = South house { $house }
board-house-north = North house { $house }
# A pit as a screen reader reads it: "South house 3, 4 seeds".
board-pit = { $name }, { $count ->
        [one] { $count } seed
       *[other] { $count } seeds
    }

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
friends-takeback-asked-name = { $name } asks to take back their last move.
friends-takeback-waiting = You asked to take back your last move; waiting for your friend.
friends-takeback-waiting-name = You asked to take back your last move; waiting for { $name }.
friends-takeback-yours-accepted = Your friend accepted your takeback: your last move is taken back.
friends-takeback-yours-accepted-name = { $name } accepted your takeback: your last move is taken back.
friends-takeback-yours-refused = Your friend refused your takeback.
friends-takeback-yours-refused-name = { $name } refused your takeback.
friends-takeback-you-accepted = You accepted the takeback: your friend plays their move again.
friends-takeback-you-accepted-name = You accepted the takeback: { $name } plays their move again.
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
friends-rematch-offered-name = Rematch offered; waiting for { $name }.
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
friends-entry-people = two people at one screen
friends-entry-engine = against the engine
friends-entry-player = against your friend, you play { $side ->
        [South] South
       *[North] North
    }
friends-entry-player-name = against { $name }, you play { $side ->
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
lobby-rated-needs-clock = A rated game has a clock: pick one
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

# $detail: what is wrong, in the API's English words (the new-game form's rules, position or
# record; the lobby's offer).
error-bad = { $detail }
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
error-rated-kept = a rated game counts once both players have moved: it is never deleted, only resigned or played to its end
error-rated-untimed = a rated game has a clock: pick one, or play unrated
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
error-sign-in-wait = too many wrong passwords for this name: try again in { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }
error-passwords-busy = the server is busy checking other passwords: ask again in a second
error-no-player = no player is named “{ $name }”
