# The words of kalah's pages in English: the served page and the static site (kalah-web's
# web/), the board (kalah-board), the KGP server's page (kalah-kgp-server) and the errors the
# API returns for a person to read. docs/l10n.md says how to add a language.

## The language, as the language switch names it (in its own language).

language-name = English
language-choose = Language

## The page (index.html, app.js, backend.js, local.js).

## The board (kalah-board's board.js).

## Games between friends (friends.js).

## The lobby (lobby.js).

## Searches drawn (searches.js).

## The KGP server's page (kalah-kgp-server's web/).

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
