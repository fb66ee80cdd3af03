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

friends-down = Der Server antwortet nicht: Die Seite verbindet sich von selbst wieder, sobald er zurück ist.
friends-also = Du spielst diese Partie auch auf einem anderen Gerät oder in einem anderen Tab.
friends-copy = Kopieren
# $label: der Name des Links, z. B. „Zuschauer-Link“.
friends-link-copied = { $label } kopiert.
friends-link-label = { $label }:
friends-selected = Markiert: Drücke Strg+C (⌘C) zum Kopieren.
friends-refused-watching = Das können nur die Spieler dieser Partie; diese Seite schaut nur zu.
friends-refused-changed = Die Partie hat sich inzwischen geändert; hier ist sie, wie sie jetzt steht.
# $side: South oder North.
friends-you-play = Du spielst { $side ->
        [South] Süd
       *[North] Nord
    }.
friends-watching = Du schaust dieser Partie zu.
friends-takeback-asked = Dein Mitspieler bittet darum, seinen letzten Zug zurückzunehmen.
friends-takeback-waiting = Du hast um die Rücknahme deines letzten Zugs gebeten; warte auf deinen Mitspieler.
friends-takeback-yours-accepted = Dein Mitspieler hat deine Rücknahme angenommen: Dein letzter Zug ist zurückgenommen.
friends-takeback-yours-refused = Dein Mitspieler hat deine Rücknahme abgelehnt.
friends-takeback-you-accepted = Du hast die Rücknahme angenommen: Dein Mitspieler spielt seinen Zug noch einmal.
friends-takeback-you-refused = Du hast die Rücknahme abgelehnt.
# Für Zuschauer. $side: South oder North; $answer: accepted oder refused.
friends-takeback-answered = Die Rücknahme von { $side ->
        [South] Süd
       *[North] Nord
    } wurde { $answer ->
        [accepted] angenommen
       *[refused] abgelehnt
    }.
friends-send = Schick deinem Mitspieler den Einladungslink (unter den Knöpfen).
friends-rematch-open = Revanche spielen
friends-rematch-offered = Revanche angeboten; warte auf deinen Mitspieler.
friends-rematch-accept = Revanche annehmen
friends-rematch = Revanche (Seiten getauscht)
friends-takeback-accept = Rücknahme annehmen
friends-takeback-refuse = Ablehnen
friends-resign = Aufgeben
friends-resign-confirm = Diese Partie aufgeben?
friends-invitation-link = Einladung für deinen Mitspieler
friends-watch-link = Zuschauer-Link
friends-links = Einladungs- und Zuschauer-Link
friends-seat-elsewhere = Auf einem anderen Gerät weiterspielen
friends-seat-warning = Dieser Link ist dein Platz: Wer ihn hat, spielt für dich. Öffne ihn nur auf deinen eigenen Geräten.
friends-seat-link = Link zu deinem Platz
# Wer da ist: $side South oder North, $here yes oder no.
friends-presence = { $side ->
        [South] Süd
       *[North] Nord
    } ist { $here ->
        [yes] da
       *[no] nicht da
    }
friends-presence-one = { $side }.
friends-presence-both = { $south } · { $north }.
friends-rematch-failed = Die Revanche lässt sich nicht öffnen: { $error }
friends-status-handicap = Du entscheidest über die Vorgabe: Behalte das Brett, oder versetze einen Samen
friends-status-handicap-friend = Dein Mitspieler entscheidet über die Vorgabe
friends-status-handicap-name = { $name } entscheidet über die Vorgabe
friends-status-pie = Du bist am Zug: Säe aus einer Mulde, oder tausche die Seiten
friends-status-pie-friend = Dein Mitspieler ist am Zug (er darf die Seiten tauschen)
friends-status-pie-name = { $name } ist am Zug (darf die Seiten tauschen)
friends-status-move = Du bist am Zug
friends-status-move-friend = Dein Mitspieler ist am Zug
friends-status-move-name = { $name } ist am Zug
friends-own-invitation = Das ist die Einladung, die du verschickt hast: Bewahre sie für deinen Mitspieler auf. Du behältst hier deinen eigenen Platz.
friends-other-seat = Dieser Link gehört zum anderen Platz einer Partie, die du hier spielst: Du behältst deinen eigenen Platz.
friends-entry = { $rules }, { $who }: { $turn }
friends-entry-people = zwei Personen an einer Seite
friends-entry-engine = gegen die Engine
friends-entry-player = gegen deinen Mitspieler, du spielst { $side ->
        [South] Süd
       *[North] Nord
    }
friends-entry-friends = zwischen Mitspielern
friends-entry-to-move = { $side ->
        [South] Süd
       *[North] Nord
    } am Zug
friends-games = Deine laufenden Partien ({ $count })
friends-games-listed = Du hast laufende Partien: Sie stehen unter den Knöpfen.

## The lobby (lobby.js).

lobby-summary = Lobby: gegen jemanden spielen
lobby-name = Dein Name
lobby-name-field =
    .placeholder = 3 bis 20 Buchstaben, Ziffern, - oder _
lobby-pick = Diesen Namen wählen
lobby-guest = Als Gast spielen
lobby-no-password = Kein Passwort: Dieser Browser merkt sich deinen Namen, und ein Link bringt ihn auf deine anderen Geräte.
lobby-sign-in-summary = Dein Name hat ein Passwort? Anmelden
lobby-sign-in-name = Name
lobby-sign-in-password = Passwort
lobby-sign-in = Anmelden
lobby-you-play-as = Du spielst als
lobby-you-play-as-end = .
lobby-carry-summary = Dein Name auf einem anderen Gerät
lobby-carry-warning = Dieser Link ist dein Name: Wer ihn hat, spielt als du. Öffne ihn nur auf deinen eigenen Geräten.
lobby-carry-field =
    .aria-label = Der Link, der deinen Namen trägt
lobby-carry-copy = Kopieren
lobby-carry-copied = Der Link, der deinen Namen trägt, wurde kopiert.
lobby-password = Oder ein Passwort (freiwillig, mindestens 8 Zeichen)
lobby-password-set = Passwort festlegen
lobby-password-done = Dein Passwort ist festgelegt: Melde dich damit und mit deinem Namen auf jedem Gerät an.
lobby-forget = Meinen Namen hier vergessen
lobby-forget-confirm = Deinen Namen in diesem Browser vergessen? Bewahre zuerst den Link auf, der ihn trägt, sonst ist der Name verloren.
lobby-board = Brett
lobby-rules-empty-capture = Kalah(6,4), Leerfang
lobby-rules-pie = Kalah(6,6), Tortenregel
lobby-clock = Uhr
lobby-clock-option-none = keine
lobby-clock-option = { $minutes } Min. + { $increment } s
lobby-colour = Du spielst
lobby-colour-random = beliebige Seite
lobby-colour-south = Süd (beginnt)
lobby-colour-north = Nord
lobby-rated-box = Gewertet
lobby-offer = Herausforderung anbieten
lobby-quick = Schnelle Partie
lobby-level = Oder gegen die Engine, gewertet: Stufe
lobby-engine = Gegen die Engine spielen
lobby-challenges = Offene Herausforderungen
lobby-challenges-none = Keine offen: Biete eine an.
lobby-playing = Laufende Partien
lobby-playing-none = Gerade läuft keine Partie.
lobby-find = Spieler finden
lobby-find-go = Partien zeigen
lobby-leaderboard = Rangliste
lobby-family-other = andere Bretter
lobby-leaderboard-none = Noch keine Wertung steht fest (eine Wertung ist vorläufig, mit ? gezeigt, bis sie sicher ist).
lobby-clock-none = ohne Uhr
lobby-clock-minutes = { $minutes } Min.
lobby-clock-seconds = { $seconds } s
lobby-clock-increment = { $base } + { $increment } s
lobby-carried = Du spielst jetzt in diesem Browser als { $name }.
lobby-carried-none = Der Link trägt keinen Namen: { $error }
lobby-name-unknown = Dein Name { $name } ist hier nicht mehr bekannt: Wähle einen anderen.
lobby-guest-only = (Gast: nur ungewertete Partien)
lobby-rating-first = Wertung 1500? in jeder Brettfamilie bis zu deiner ersten gewerteten Partie
lobby-challenge-open = Deine Herausforderung ist offen: Sie wartet hier { $minutes } Minuten.
lobby-game-begins = Deine Partie gegen { $name } beginnt.
lobby-game-begins-opponent = Deine Partie gegen deinen Gegner beginnt.
lobby-new-ratings = Neue Wertungen: { $first } { $firstRating }, { $second } { $secondRating }
lobby-wants = { $name } spielt { $side ->
        [south] Süd
       *[north] Nord
    }
lobby-rated = gewertet
lobby-casual = ungewertet
lobby-withdraw = Zurückziehen
lobby-accept = Annehmen
lobby-leader-games = ({ $count ->
        [one] { $count } Partie
       *[other] { $count } Partien
    })
lobby-outcome = { $outcome ->
        [playing] läuft
        [aborted] abgebrochen
        [draw] Remis
        [won] gewonnen
       *[lost] verloren
    }
lobby-chart = Verlauf der Wertung: von { $from } auf { $to }
lobby-player-guest = { $name } (Gast)
lobby-player-rating = { $family }: { $rating }
lobby-player-rating-games = { $family }: { $rating } nach { $count ->
        [one] { $count } gewerteten Partie
       *[other] { $count } gewerteten Partien
    }
lobby-player-history = Wertung nach jeder gewerteten Partie: { $ratings }
lobby-player-history-none = Noch keine gewertete Partie.
lobby-player-against = gegen { $name }
lobby-player-games = Partien
lobby-player-close = Schließen

## Searches drawn (searches.js).

searches-summary = Suchen: Minimax und Alpha-Beta, gezeichnet
searches-search = Suche
searches-option-minimax = Minimax
searches-option-alphabeta = Alpha-Beta
searches-option-ordered = Alpha-Beta, sortiert
searches-depth = Tiefe
searches-draw = Zeichnen
searches-about = Tiefe 1 bis 6; ein Baum mit mehr als 5000 Aufrufen wird gezählt, nicht gezeichnet. Werte in Samen für die Seite am Zug; Max zieht für sie, Min für die andere Seite.
searches-column-search = Suche
searches-column-max = Max-Aufrufe
searches-column-min = Min-Aufrufe
searches-column-total = Gesamt
searches-steps =
    .aria-label = Die Aufrufe in der Reihenfolge durchgehen, in der sie gemacht wurden
searches-first =
    .aria-label = Erster Aufruf
searches-back = ◀ Zurück
searches-next = Weiter ▶
searches-last =
    .aria-label = Letzter Aufruf
searches-expand = Alle aufklappen
searches-fold = Alle zuklappen
searches-tree =
    .aria-label = Die Aufrufe von Max und Min, jeder unter seinem Aufrufer, in der Reihenfolge, in der sie gemacht wurden
searches-name = { $search ->
        [minimax] Minimax
        [alphabeta] Alpha-Beta
       *[ordered] Alpha-Beta, sortiert
    }
searches-root = Wurzel
searches-house = Mulde { $house }
searches-value = { $end ->
        [evaluated] Wert { $value } (bewertet)
        [finished] Wert { $value } (Partie vorbei)
       *[other] Wert { $value }
    }
searches-cut-houses = { $count ->
        [one] Mulde
       *[other] Mulden
    } { $houses }
searches-cut-beta = β-Schnitt: α { $alpha } ≥ β { $beta }, { $houses } nicht durchsucht
searches-cut-alpha = α-Schnitt: β { $beta } ≤ α { $alpha }, { $houses } nicht durchsucht
searches-path = nach { $houses }
searches-path-root = die Wurzel
searches-at = Aufruf { $call } von { $calls }
searches-call = { $call }; { $path }, noch { $depth ->
        [one] { $depth } Aussaat
       *[other] { $depth } Aussaaten
    }
searches-here-caption = Diese Stellung, Tiefe { $depth }
searches-game-caption = Durchschnitt über die bisherige Partie ({ $positions ->
        [one] { $positions } Stellung
       *[other] { $positions } Stellungen
    }), Tiefe { $depth }
searches-untraced = Kein Baum: { $search } bis Tiefe { $depth } macht mehr als { $limit } Aufrufe von Max und Min, mehr als eine gezeichnete Suche behält: Wähle eine kleinere Tiefe oder eine Suche, die beschneidet.
searches-best-none = kein Zug (die Partie ist vorbei)
searches-drawn = { $search } bis Tiefe { $depth }: { $count ->
        [one] { $calls } Aufruf
       *[other] { $calls } Aufrufe
    }, Wert { $value } für die Seite am Zug, bester Zug: { $best }.
searches-searching = Suche läuft…

## The KGP server's page (kalah-kgp-server's web/).

kgp-title = kalah kgp serve: Partien und Ergebnisse
kgp-heading = Server für das Kalah Game Protocol
kgp-intro-stored = Partien, gespeichert von
kgp-intro-and = und
kgp-intro-connect = . Agenten verbinden sich per KGP über
kgp-intro-port = oder den TCP-Port.
kgp-results = Ergebnisse
kgp-scope = Aus
kgp-scope-every = allen gespeicherten Partien
kgp-cross = Wer wen geschlagen hat
kgp-cross-note = Siege, Remis und Niederlagen des Agenten der Zeile gegen den der Spalte.
kgp-games = Partien
kgp-agent = Agent
kgp-agent-every = alle Agenten
kgp-column-game = Partie
kgp-column-south = Süd
kgp-column-north = Nord
kgp-column-result = Ergebnis
kgp-column-moves = Züge
kgp-column-board = Brett
kgp-column-tournament = Turnier
kgp-replay = Partie
kgp-board =
    .aria-label = Kalah-Brett
kgp-first =
    .aria-label = Zum Anfang
kgp-back =
    .aria-label = Einen Zug zurück
kgp-ply =
    .aria-label = Zug
kgp-forward =
    .aria-label = Einen Zug weiter
kgp-last =
    .aria-label = Zum Ende
kgp-download = Die Aufzeichnung herunterladen
kgp-standings-rank = Platz
kgp-standings-agent = Agent
kgp-standings-games = Partien
kgp-standings-points = Punkte
kgp-standings-wins = Siege
kgp-standings-draws = Remis
kgp-standings-losses = Niederlagen
kgp-standings-elo = Elo (95 %)
kgp-standings-none = Noch keine Partie ist zu Ende.
kgp-infinite = ∞
kgp-state = { $state ->
        [ongoing] läuft
        [south-won] Süd gewinnt
        [north-won] Nord gewinnt
        [draw] Remis
        [south-resigned] Süd gibt auf
        [north-resigned] Nord gibt auf
        [aborted] abgebrochen
       *[other] { $state }
    }
kgp-games-count = { $count ->
        [one] { $count } Partie
       *[other] { $count } Partien
    }.
kgp-games-of = { $count ->
        [one] { $count } Partie
       *[other] { $count } Partien
    } von { $agent }.
kgp-replay-title = Partie { $id }
kgp-replay-players = { $south } (Süd) gegen { $north } (Nord), { $rules }
kgp-side = { $side ->
        [south] Süd
       *[north] Nord
    }
kgp-how = { $how ->
        [random] zufällig
        [auto] automatisch
       *[other] { $how }
    }
kgp-millis = { $millis } ms
kgp-replay-status = Nach { $ply } von { $moves } Zügen
kgp-replay-status-mover = Nach { $ply } von { $moves } Zügen, { $side ->
        [south] Süd
       *[north] Nord
    } am Zug
kgp-replay-ended = { $status }: { $result }
kgp-tournament = Turnier { $id } ({ $boards }, { $games ->
        [one] { $games } Partie
       *[other] { $games } Partien
    })
kgp-tournament-playing = Turnier { $id } ({ $boards }, { $games ->
        [one] { $games } Partie
       *[other] { $games } Partien
    }, läuft)
kgp-unreadable = Die Daten des Servers lassen sich nicht lesen: { $error }

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
