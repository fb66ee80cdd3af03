# Die Texte der Seiten von kalah auf Deutsch: die Seite des Servers und die statische Seite
# (web/ von kalah-web), das Brett (kalah-board), die Seite des KGP-Servers (kalah-kgp-server)
# und die Fehlermeldungen der API, die ein Mensch liest. docs/l10n.md sagt, wie eine Sprache
# hinzukommt.

## The language, as the language switch names it (in its own language).

language-name = Deutsch
language-choose = Sprache

## The page (index.html, app.js, backend.js, local.js).

## The board (kalah-board's board.js).

## Games between friends (friends.js).

## The lobby (lobby.js).

## Searches drawn (searches.js).

## The KGP server's page (kalah-kgp-server's web/).

## Errors the API returns (kalah-web).
# Each error's `code` is its message here; the page shows the message in its language, and a
# request that accepts another language gets `error` in it.

error-bad = Die Anfrage ist so nicht lesbar.
error-over = Die Partie ist vorbei: Es gibt keine Züge mehr.
error-engines-seat = { $side ->
        [north] Nord
       *[south] Süd
    } spielt die Engine: Bitte die Engine ziehen lassen.
error-persons-seat = { $side ->
        [north] Nord
       *[south] Süd
    } spielt ein Mensch: Der Zug kommt von dort.
error-not-yours = { $side ->
        [north] Nord
       *[south] Süd
    } ist der Platz deines Gegenübers: Nur wer ihn hält, zieht für ihn.
error-not-a-player = Nur die Spieler dieser Partie können sie ändern: Diese Seite schaut zu (der Link eines Spielers hält seinen Platz).
error-wrong-token = Dieser Schlüssel gehört zu keinem Platz dieser Partie: Nimm den Link, den du bekommen hast.
error-unowned = Diese Partie stammt von einem älteren kalah ohne Platzschlüssel: Du kannst zuschauen und ihre Aufzeichnung in eine neue Partie laden, sie aber nicht ändern.
error-rematch-not-over = Die Partie ist noch nicht vorbei: Eine Revanche folgt erst auf ihr Ende.
error-rematch-begun = Die Revanche hat schon begonnen.
error-takeback-rated = Eine gewertete Partie kennt keine Rücknahme: Jeder Zug gilt.
error-takeback-no-move = Du hast keinen Zug, den du zurücknehmen könntest.
error-takeback-asked = Um eine Rücknahme ist schon gebeten.
error-takeback-none = Niemand bittet um eine Rücknahme.
error-takeback-yours = Die Rücknahme ist deine Bitte: Dein Gegenüber antwortet darauf.
error-takeback-nothing = Es gibt nichts zurückzunehmen.
error-takeback = Die Rücknahme geht jetzt nicht.
error-thinking = Die Engine denkt noch.
error-changed = Die Partie hat sich geändert, während die Engine nachdachte (ein Zug, eine Rücknahme, oder sie wurde geschlossen): Frag noch einmal.
error-stale = Der Zug wurde auf Stand { $made } der Partie gemacht, jetzt ist sie bei Stand { $now }: Schau noch einmal.
error-illegal = Diesen Zug erlauben die Regeln nicht.
error-history = Diesen Zug gibt es im Verlauf der Partie nicht.
error-ended = Die Partie wurde { $how ->
        [time] durch Zeitüberschreitung verloren
        [resigned] durch Aufgabe verloren
        [aborted] abgebrochen
       *[other] beendet
    }: Ihre Züge bleiben, wie sie gespielt wurden; beginne eine neue Partie oder lade ihre Aufzeichnung.
error-friends-step = In einer Partie unter Freunden geht es nur durch eine Rücknahme zurück, die dein Gegenüber annimmt.
error-no-help = Eine laufende Partie unter Freunden bekommt keinen Tipp und keine Analyse: Frag, wenn sie vorbei ist.
error-rated = Eine gewertete Partie wird gespielt, wie sie kommt: Kein Zurücknehmen und keine Tipps oder Analysen, bis sie vorbei ist.
error-kept = Eine beendete Partie unter Freunden gehört beiden Spielern: Sie bleibt im Archiv.
error-begun = Beide Spieler haben gezogen: Gib lieber auf (eine Partie unter Freunden wird nur gelöscht, bevor sie beginnt).
error-no-friends = Partien gegen Freunde brauchen kalah serve: Diese Seite spielt ohne Server.
error-stopping = Der Server hält gerade an: Frag gleich noch einmal.
error-no-game = Es gibt keine Partie „{ $id }“: Sie wurde gelöscht oder gab es nie.
error-store = Die Datenbank der Partien antwortet nicht: Nichts wurde geändert; versuch es noch einmal.
error-changed-elsewhere = Die Partie hat sich inzwischen über einen anderen Server geändert und ist jetzt bei Stand { $version }: Nichts von dieser Anfrage ist geschehen; schau noch einmal.
error-full = Der Server hält schon die meisten Partien, die er kann ({ $most }): Schließ eine oder versuch es später.
error-engine-failed = Die Suche der Engine ist gescheitert.
error-engines-busy = Der Server ist ausgelastet: Jede Engine denkt gerade; frag in einer Sekunde noch einmal.
error-nothing-here = Unter dieser Adresse gibt es nichts.
error-too-many = Zu viele Anfragen von deiner Adresse: Warte einen Moment und versuch es dann noch einmal.
error-other-site = Eine andere Website kann hier keine Partien ändern.
error-no-challenge = Diese Herausforderung ist nicht mehr offen: Sie wurde angenommen, zurückgezogen oder ist abgelaufen.
error-challenge-own = Das ist deine eigene Herausforderung: Ein anderer Spieler nimmt sie an (zieh sie stattdessen zurück).
error-challenge-not-yours = Diese Herausforderung ist die eines anderen Spielers: Nur wer sie gestellt hat, zieht sie zurück.
error-guest-rated = Gäste spielen nur ungewertete Partien: Wähl einen Namen, um gewertet zu spielen.
error-challenges-too-many = Du hast schon 3 offene Herausforderungen: Zieh eine zurück oder warte, bis eine angenommen wird oder abläuft.
error-name-malformed = Ein Name hat 3 bis 20 Zeichen: Buchstaben (a bis z), Ziffern, - oder _, und beginnt mit einem Buchstaben.
error-name-reserved = Der Name { $name } ist dem Server vorbehalten (Namen, die mit guest, engine, removed, admin, kalah oder anonymous beginnen): Wähl einen anderen.
error-name-taken = Der Name { $name } ist vergeben (Namen unterscheiden sich nicht nur in Groß- und Kleinschreibung): Wähl einen anderen.
error-no-guest-name = Kein Gastname ist frei: Versuch es noch einmal.
error-no-such-secret = Kein Spieler hat dieses Geheimnis: Wähl einen Namen oder öffne den Link, der deinen trägt.
error-guest-password = Ein Gastname hat kein Passwort: Wähl einen eigenen Namen.
error-password-length = Ein Passwort hat 8 bis 200 Zeichen, nicht { $length }.
error-name-removed = Der Name { $name } wurde entfernt.
error-sign-in = Name oder Passwort sind falsch (oder der Name hat kein Passwort).
error-no-player = Kein Spieler heißt „{ $name }“.
