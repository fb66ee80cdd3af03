# Die Texte der Seiten von kalah auf Deutsch: die Seite des Servers und die statische Seite
# (web/ von kalah-web), das Brett (kalah-board), die Seite des KGP-Servers (kalah-kgp-server)
# und die Fehlermeldungen der API, die ein Mensch liest. docs/l10n.md sagt, wie eine Sprache
# hinzukommt.

## The language, as the language switch names it (in its own language).

language-name = Deutsch
language-choose = Sprache

## The page (index.html, app.js, backend.js, local.js).

# Die Seiten und die Spieler, wie die Seite sie nennt.
page-south = Süd
page-north = Nord
page-you = du
page-your-friend = dein Mitspieler
page-a-person = ein Mensch
page-engine-level = Engine Stufe { $level }
# Eine Seite mit ihrem Spieler, wo die Engine sie spielt: „Nord (Engine Stufe 3)“.
page-side-engine = { $side } (Engine Stufe { $level })
# Eine Aktion der Zugliste oder eines Tipps: die Nummer einer Mulde, oder diese.
page-action-swap = Tauschen
page-action-keep = Behalten
page-house = Mulde { $house }

# Die Teile der Seite (index.html).
page-title = Kalah
page-board-section =
    .aria-label = Brett
page-board =
    .aria-label = Kalah-Brett
page-controls =
    .aria-label = Steuerung der Partie
page-loading = Lädt …
page-retry = Noch einmal versuchen
page-start-new = Eine neue Partie beginnen
page-play-again = Noch einmal spielen
page-end-new = Neue Partie …
page-legend-south = letzter Zug von Süd
page-legend-north = letzter Zug von Nord
page-legend-from = gesät aus
page-legend-last = letzter Samen
page-legend-captured = Fang
page-legend-extra = Zusatzzug
page-swap = Seiten tauschen (Tortenregel)
page-engine-go = Engine, zieh
page-keep = Brett behalten (keine Vorgabe)
page-eval =
    .title = Bewertung: der erwartete Vorsprung von Süd am Ende
page-eval-south-ahead = ◀ Süd vorn
page-eval-north-ahead = Nord vorn ▶
page-eval-bar =
    .aria-label = Bewertungsbalken: der Anteil von Süd ist grün, der von Nord lila
page-new = Neue Partie
page-undo = Zurücknehmen
page-take-back = Rücknahme
page-redo = Wiederholen
page-hint = Tipp
page-solve = Lösen
page-games = Deine laufenden Partien
page-language =
    .aria-label = Sprache
page-sowing = Säen
page-speed-none = ohne Animation
page-speed-slow = langsam
page-speed-normal = normal
page-speed-fast = schnell
page-evaluation = Bewertung
page-sound = Ton
page-theme = Farbschema
page-theme-auto = wie das System
page-theme-light = hell
page-theme-dark = dunkel
page-moves = Züge
page-moves-list =
    .aria-label = Zugliste: wähle einen Zug, um die Stellung danach zu sehen
page-save = Partie speichern
page-load = Partie laden
page-link = Link zu dieser Stellung
page-link-text =
    .aria-label = Link zu dieser Stellung
page-explorer = Zugübersicht: jeder Zug bei perfektem Spiel
page-explorer-move = Zug
page-explorer-value = Wert
page-explorer-result = Ergebnis
page-explorer-note = Hinweis
page-keys = Tasten:
page-keys-sow = säen aus einer Mulde;
page-keys-step = gehen durch die Züge;
page-keys-and = und
page-keys-reach = erreichen alles.

# Die Teile der Lobby in index.html (lobby.js füllt sie).
page-lobby = Lobby: gegen jemanden spielen
page-lobby-your-name = Dein Name
page-lobby-name-input =
    .placeholder = 3 bis 20 Buchstaben, Ziffern, - oder _
page-lobby-pick = Diesen Namen wählen
page-lobby-guest = Als Gast spielen
page-lobby-no-password = Kein Passwort: Dieser Browser merkt sich deinen Namen, und ein Link bringt ihn auf deine anderen Geräte.
page-lobby-sign-in-summary = Dein Name hat ein Passwort? Anmelden
page-lobby-sign-in-name = Name
page-lobby-sign-in-password = Passwort
page-lobby-sign-in = Anmelden
page-lobby-you-play-as = Du spielst als
page-lobby-carry-summary = Dein Name auf einem anderen Gerät
page-lobby-carry-warning = Dieser Link ist dein Name: Wer ihn hat, spielt als du. Öffne ihn nur auf deinen eigenen Geräten.
page-lobby-carry =
    .aria-label = Der Link, der deinen Namen trägt
page-lobby-copy = Kopieren
page-lobby-password = Oder ein Passwort (freiwillig, mindestens 8 Zeichen)
page-lobby-password-set = Passwort setzen
page-lobby-forget = Meinen Namen hier vergessen
page-lobby-board = Brett
page-lobby-empty-capture = Kalah(6,4), Leerfang
page-lobby-pie = Kalah(6,6), Tortenregel
page-lobby-clock = Bedenkzeit
page-lobby-clock-none = keine
page-lobby-minutes = { $minutes } Min. + { $seconds } s
page-lobby-you-play = Du spielst
page-lobby-either = beliebige Seite
page-lobby-south = Süd (beginnt)
page-lobby-north = Nord
page-lobby-rated = Gewertet
page-lobby-offer = Herausforderung anbieten
page-lobby-quick = Schnelle Paarung
page-lobby-engine-level = Oder gegen die Engine spielen, gewertet: Stufe
page-lobby-engine = Gegen die Engine spielen
page-lobby-open = Offene Herausforderungen
page-lobby-none = Keine offen: Biete eine an.
page-lobby-playing = Wird gerade gespielt
page-lobby-playing-none = Gerade wird keine Partie gespielt.
page-lobby-find = Spieler finden
page-lobby-find-go = Partien ansehen
page-lobby-leaderboard = Rangliste
page-lobby-other-boards = andere Bretter
page-lobby-leaderboard-none = Noch steht keine Wertung fest (eine Wertung ist vorläufig, mit ? gezeigt, bis sie sicher ist).
page-player-games = Partien
page-player-close = Schließen

# Die Teile der Suchen in index.html (searches.js füllt sie).
page-searches = Suchen: Minimax und Alpha-Beta, gezeichnet
page-searches-search = Suche
page-searches-minimax = Minimax
page-searches-alphabeta = Alpha-Beta
page-searches-ordered = Alpha-Beta, geordnet
page-searches-depth = Tiefe
page-searches-draw = Zeichnen
page-searches-about = Tiefe 1 bis 6; ein Baum mit mehr als 5000 Aufrufen wird gezählt, nicht gezeichnet. Werte in Samen für die Seite am Zug; Max zieht für sie, Min für die andere Seite.
page-searches-max-calls = Aufrufe von Max
page-searches-min-calls = Aufrufe von Min
page-searches-total = Gesamt
page-searches-steps =
    .aria-label = Schritt für Schritt durch die Aufrufe, in ihrer Reihenfolge
page-searches-first =
    .aria-label = Erster Aufruf
page-searches-back = ◀ Zurück
page-searches-next = Weiter ▶
page-searches-last =
    .aria-label = Letzter Aufruf
page-searches-open = Alle aufklappen
page-searches-fold = Alle zuklappen
page-searches-tree =
    .aria-label = Die Aufrufe von Max und Min, jeder unter seinem Aufrufer, in ihrer Reihenfolge

# Das Formular der neuen Partie (index.html, app.js).
page-form-title = Neue Partie
page-form-board = Brett
page-form-houses = Mulden je Seite
page-form-seeds = Samen je Mulde
page-form-rules = Regeln
page-form-preset = Voreinstellung
page-form-capture = Fang
page-form-end = Ende
page-form-leftover = Übrige Samen gehen an
page-form-direction = Richtung
page-form-sowing = Säen
page-form-majority = Endet, sobald ein Speicher mehr als die Hälfte hat
page-form-pie = Tortenregel (Nord darf tauschen)
page-form-handicap = Vorgabe (Nord darf zuerst einen Samen versetzen)
page-form-players = Spieler
page-form-south = Süd (erster Spieler)
page-form-north = Nord (zweiter Spieler)
page-form-clock = Bedenkzeit je Spieler
page-form-clock-none = keine
page-form-clock-minute = 1 Min.
page-form-clock-move = { $minutes } Min. + { $seconds } s je Zug
page-form-fair = Fairer Start: Perfekte Spieler spielen remis (freiwillig)
page-form-start-position = Startstellung (freiwillig)
page-form-start-input =
    .placeholder = z. B. 4,4,4,4,4,4:0/4,4,4,4,4,4:0/S
page-form-start = Starten
page-form-cancel = Abbrechen
page-form-as-chosen = (wie unten gewählt)
page-form-none = (keiner)
page-form-friend = ein Mitspieler (Einladung per Link)
page-form-fair-group = { $rules }: { $count } Startstellungen
# Ein Speicher in den Samenverschiebungen eines fairen Starts: „S1>N-Speicher“.
page-fair-store = Speicher
page-form-not-number = das ist keine Zahl
page-form-empty = das Feld ist leer
page-form-out-of-range = { $text } liegt außerhalb des Bereichs
page-form-not-whole = { $text } ist keine ganze Zahl
page-form-problem = { $what }: { $wrong }; gib eine ganze Zahl von { $min } bis { $max } ein.
# Die Voreinstellungen und die Stufen der Engine im Formular, nach ihren Namen.
page-preset-standard = Fang nur, wenn die gegenüberliegende Mulde Samen hat; endet, wenn eine Seite leer ist
page-preset-empty-capture = Fang auch, wenn die gegenüberliegende Mulde leer ist (Irving, Donkers & Uiterwijk)
page-preset-assignment = Standard, aber die Partie endet erst, wenn der Spieler am Zug keine Samen hat
page-preset-seed-on = ein letzter Samen in einer nicht leeren Mulde sät weiter; kein Fang
page-preset-clockwise = Standard-Fang, Samen im Uhrzeigersinn gesät
page-preset-kgp = Standard, und die Partie endet, sobald ein Speicher mehr als die Hälfte aller Samen hat
page-preset-mkagent = die Manchester-Partie der Agenten: Kalah(7,7), Tortenregel, kein Zusatzzug beim ersten Zug
page-level-1 = 1: schaut eine Aussaat voraus
page-level-2 = 2: drei Aussaaten
page-level-3 = 3: sechs Aussaaten
page-level-4 = 4: zwölf Aussaaten
page-level-5 = 5: so tief, wie die Zeit erlaubt
# Die Wörter der Regeln, wie die Auswahl im Formular und die Zeile der Regeln sie zeigen.
page-rule-standard = Standard
page-rule-empty = leer
page-rule-none = keiner
page-rule-side-empty = Seite-leer
page-rule-mover-stuck = Zieher-blockiert
page-rule-owner = Besitzer
page-rule-emptier = Leerräumer
page-rule-discard = verfallen
page-rule-ccw = gegen-Uhrzeigersinn
page-rule-cw = Uhrzeigersinn
page-rule-single = einfach
page-rule-relay = weiter
page-rule-empty-capture = Leerfang
page-rule-assignment = Aufgabe
page-rule-seed-on = Weitersäen
page-rule-clockwise = Uhrzeigersinn
page-rule-kgp = KGP
page-rule-mkagent = MKAgent
page-rule-majority-ends = Mehrheit-endet
page-rule-no-first-extra = kein-erster-Zusatzzug
page-rule-pie = Tortenregel
page-rule-handicap = Vorgabe
page-rule-capture = Fang
page-rule-end = Ende
page-rule-leftover = Rest
page-rule-direction = Richtung
page-rule-sowing = Säen

# Die Regeln, kurz (docs/rules.md).
page-rules = Regeln
page-rules-board = Das Brett hat für jeden Spieler eine Reihe Mulden und an jedem Ende einen Speicher. Süd (der erste Spieler) besitzt die untere Reihe und den Speicher rechts, Nord die obere Reihe und den Speicher links.
page-rules-sow = Ein Zug nimmt alle Samen aus einer deiner Mulden und sät sie einzeln gegen den Uhrzeigersinn in die folgenden Mulden und deinen eigenen Speicher; den Speicher deines Gegners überspringst du.
page-rules-extra = Landet der letzte Samen in deinem eigenen Speicher, bekommst du einen Zusatzzug: Du ziehst noch einmal.
page-rules-capture = Landet der letzte Samen in einer leeren eigenen Mulde und liegen in der gegenüberliegenden Mulde Samen, fängst du: Beide kommen in deinen Speicher.
page-rules-end = Die Partie endet, sobald alle Mulden einer Seite leer sind; dann legt jeder Spieler die Samen, die auf seiner Seite übrig sind, in seinen eigenen Speicher.
page-rules-win = Wer mehr Samen im Speicher hat, gewinnt; bei Gleichstand ist die Partie remis.
page-rules-pie = Mit der Tortenregel darf Nord nach dem ersten Zug von Süd die Seiten tauschen, statt zu ziehen.
page-rules-handicap = Mit Vorgabe darf Nord vor dem ersten Zug einen Samen aus einer beliebigen Mulde in eine andere versetzen oder das Brett behalten.

# Was die Seite über die Partie sagt (app.js).
page-status-to-move = { $who } ist am Zug
page-status-pie = { $who } ist am Zug: säe aus einer Mulde oder tausche die Seiten
page-status-handicap = { $who } entscheidet über die Vorgabe: das Brett behalten oder einen Samen versetzen
page-status-aborted = Partie abgebrochen: { $side } hat den ersten Zug nicht rechtzeitig gemacht. Kein Ergebnis.
page-status-lost-on-time = Partie vorbei: { $loser } hat die Zeit überschritten; { $winner } gewinnt.
page-status-resigned = Partie vorbei: { $loser } hat aufgegeben; { $winner } gewinnt.
page-status-won = Partie vorbei: Süd { $south }, Nord { $north }. { $winner } gewinnt mit { $margin } Samen Vorsprung.
page-status-draw = Partie vorbei: Süd { $south }, Nord { $north }. Die Partie endet remis.
page-your-move = Du bist am Zug
page-your-move-pie = Du bist am Zug: säe aus einer Mulde oder tausche die Seiten
page-your-handicap = Du entscheidest über die Vorgabe: das Brett behalten oder einen Samen versetzen
page-thinking = { $status } (denkt nach …)
page-waiting = { $status } ({ $why })
page-waiting-earlier = eine frühere Stellung: → oder die Zugliste geht vorwärts
page-waiting-paused = drücke „Engine, zieh“, damit sie spielt
page-rules-line = { $rules } · Süd: { $south } · Nord: { $north }
page-clock =
    .aria-label = { $side ->
        [South] Uhr von Süd
       *[North] Uhr von Nord
    }
page-busy-retrying = Der Server ist ausgelastet, neuer Versuch …
page-no-eval-rated = Keine Bewertung, solange eine gewertete Partie läuft
page-no-eval-friends = Keine Bewertung, solange eine Partie gegen einen Mitspieler läuft
page-eval-off = Bewertung aus
page-evaluating = Bewerte …
page-eval-paused = Bewertung pausiert: Der Server ist ausgelastet
page-eval-draw = remis
page-eval-wins = { $side } gewinnt mit { $lead } Samen Vorsprung
page-eval-final = Endstand: { $outcome }
page-eval-solved = Gelöst ✓: { $outcome } bei perfektem Spiel
page-eval-even = Ausgeglichen
page-eval-lead = { $side } +{ NUMBER($lead, minimumFractionDigits: 2, maximumFractionDigits: 2) }
page-eval-depth = { $who } (Tiefe { $depth })
page-eval-depth-best = { $who } (Tiefe { $depth }; am besten für { $side }: { $what })

# Das Ende einer Partie (app.js).
page-end-you-resigned = Du hast aufgegeben.
page-end-friend-resigned = Dein Mitspieler hat aufgegeben: Du hast gewonnen.
page-end-resigned = { $side } hat aufgegeben: { $winner } hat gewonnen.
page-end-you-lost-on-time = Du hast auf Zeit verloren.
page-end-friend-out-of-time = Deinem Mitspieler ist die Zeit abgelaufen: Du hast gewonnen.
page-end-out-of-time = { $side } hat die Zeit überschritten: { $winner } hat gewonnen.
page-end-draw = Remis. { $south }–{ $north }.
page-end-you-won = Du hast { $own }–{ $theirs } gewonnen.
page-end-you-lost = Du hast { $own }–{ $theirs } verloren.
page-end-won = { $winner } hat gewonnen. { $south }–{ $north }.
page-end-winner = { $side } ({ $player })

# Der letzte Zug, unter dem Brett gesagt (app.js).
page-last-sowed = { $side } säte aus Mulde { $house }
page-last-relays = , säte { $count ->
        [one] einmal
       *[other] { $count }-mal
    } weiter
page-last-captured = {" "}und fing { $count } Samen
page-last-extra = : Zusatzzug, { $side } zieht noch einmal
page-last-ended = : Damit endet die Partie
page-last-swapped = { $side } hat die Seiten getauscht: Die Spieler haben die Plätze gewechselt, Nord ist am Zug
page-last-kept = Nord hat das Brett gelassen, wie es ist (kein Vorgabezug)
page-last-handicap = Nord hat einen Samen von { $from } nach { $to } versetzt (Vorgabe)
page-sentence = { $text }.
page-handicap-picked = Ein Samen aus { $house } wird versetzt: Wähle die Mulde, in die er kommt.

# Die Zugliste (app.js).
page-moves-start = Start
page-moves-start-label = Der Anfang
page-move-label = { $number }. { $side } { $action }
page-move-captures = , fängt { $count }
page-move-extra = , Zusatzzug

# Tipp, Lösen, Zugübersicht (app.js).
page-hint-thinking = Ich denke über einen Tipp nach …
page-hint-exact = genau { $value }
page-hint-said = Tipp für { $side }: { $what } (wert { $value } Samen für { $side }, Tiefe { $depth }).
page-solving = Löse …
page-solve-draw = remis
page-solve-wins = { $side } gewinnt mit { $margin } Samen Vorsprung
page-solve-best = ; am besten für { $side }: Mulde { $house }
page-solved = Gelöst: Wert { $value } für Süd, { $outcome } bei perfektem Spiel{ $best }.
page-not-solved = In der Zeit nicht gelöst: Süd bekommt zwischen { $lower } und { $upper }.
page-explorer-not-now = Nicht, solange eine Partie gegen einen Mitspieler oder eine gewertete Partie läuft.
page-explorer-solving = Löse jeden Zug …
page-explorer-busy = Der Server ist ausgelastet: Öffne die Zugübersicht gleich noch einmal
page-verdict-win = Sieg mit { $value }
page-verdict-loss = Niederlage mit { $value }
page-verdict-draw = Remis
page-explorer-range = { $lower } bis { $upper }
page-explorer-unknown = unbekannt
page-explorer-unsettled = { $result ->
        [win] Sieg
        [loss] Niederlage
       *[draw] Remis
    } (nicht entschieden)
page-explorer-best = ★ am besten
page-explorer-throws = ✗ verschenkt { $what ->
        [win] den Sieg
       *[draw] das Remis
    }
page-explorer-again = zieht noch einmal
page-explorer-caption = Differenz der Speicher am Ende für { $side }, am Zug
page-explorer-book = aus dem Eröffnungsbuch
page-explorer-millis = gelöst in { NUMBER($seconds, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
page-explorer-over = Die Partie ist vorbei: { $verdict } für { $side }.
page-explorer-exact = Exakt ✓: { $verdict } für { $side } bei perfektem Spiel ({ $from }).
page-explorer-open = Nicht jeder Zug ist in der Zeit entschieden: { $side } bekommt { $lower } bis { $upper } ({ $from }).
page-explorer-line = Beste Folge: { $line }

# Speichern, Laden, Link (app.js).
page-cannot-save = Speichern nicht möglich: { $error }
page-loaded = { $file } geladen.
page-loaded-warning = { $file } geladen; Warnung: { $warnings }
page-cannot-load = { $file } kann nicht geladen werden: { $error }
page-link-copied = Link kopiert.

# Das Öffnen der Seite (app.js, backend.js, local.js).
page-lobby-cannot-open = Die Lobby lässt sich nicht öffnen: { $error }
page-no-such-game = Diese Partie gibt es nicht.
page-link-not-here = Die Partie des Links ist nicht in diesem Browser: { $error }.
page-link-no-game = Der Link nennt keine Partie auf diesem Server: Er ist vertippt, oder die Partie wurde gelöscht.
page-link-refused = Die Partie des Links kann nicht gespielt werden: { $error }; { $kept ->
        [yes] hier ist deine Partie, wie sie war
       *[no] hier ist eine neue Partie
    }.
page-last-gone = Deine letzte Partie lässt sich nicht fortsetzen: { $error }. Dies ist eine neue.
page-last-deleted = Deine letzte Partie ist nicht mehr auf dem Server (sie wurde gelöscht); dies ist eine neue.
page-seconds = { $count ->
        [one] { $count } Sekunde
       *[other] { $count } Sekunden
    }
page-cannot-start-retry = Start nicht möglich: { $error }. Neuer Versuch in { $wait }.
page-cannot-start = Start nicht möglich: { $error }
page-server-down = Der Server antwortet nicht: Vielleicht wurde er beendet, oder das Netz ist ausgefallen.
page-engine-time-range = engine-time in der Adresse nimmt 1 bis 60000 ms, nicht { $asked }: Die Engine nimmt { $used } ms.
page-engine-time-server = engine-time in der Adresse gilt für die Engine im Browser: Die Engine dieses Servers nimmt die Zeit, mit der er gestartet wurde.
page-changed = die Partie hat sich geändert, während die Engine nachdachte
page-kept-unreadable = ihre gespeicherten Daten sind nicht lesbar ({ $error }); sie wurden beiseitegelegt
page-not-in-browser = es gibt keine Partie { $id } in diesem Browser: Beginne eine neue
page-no-request = keine solche Anfrage in diesem Browser: { $method } { $path }

# Der Benchmark der Engine (bench.html, bench.js).
page-bench-title = Kalah: der Benchmark der Engine in diesem Browser
page-bench-heading = Der Benchmark der Engine in diesem Browser
page-bench-about = Die Stellungen von „kalah bench“, im Web Worker der Seite auf einem Thread bis zur Tiefe von „?depth=“ durchsucht (13 ohne Angabe, wie bei „kalah bench“). Bei Tiefe 13 müssen die Knoten der nativen Signatur gleichen.
page-bench-running = Läuft …
page-bench-result = Tiefe { $depth }: { $nodes } Knoten in { $millis } ms, { $nps } Knoten/s
page-bench-right = ; die Signatur stimmt
page-bench-wrong = ; FALSCH: Die Signatur ist { $signature }
page-bench-failed = Der Benchmark ist fehlgeschlagen: { $error }

## The board (kalah-board's board.js).

board-south = Süd
board-north = Nord
board-store-south = Speicher von Süd
board-store-north = Speicher von Nord
board-house-south = Mulde { $house } von Süd
board-house-north = Mulde { $house } von Nord
# Eine Grube, wie ein Bildschirmleser sie vorliest: „Mulde 3 von Süd, 4 Samen“.
board-pit = { $name }, { $count ->
        [one] { $count } Samen
       *[other] { $count } Samen
    }

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
