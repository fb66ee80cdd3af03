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
page-your-friend = dein Gegenüber
page-a-person = ein Mensch
page-engine-level = Engine, Stufe { $level }
# Eine Seite mit ihrem Spieler, wo die Engine sie spielt: „Nord (Engine, Stufe 3)“.
page-side-engine = { $side } (Engine, Stufe { $level })
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
page-study-section =
    .aria-label = Die Stellung untersuchen
page-loading = Lädt …
page-retry = Noch einmal versuchen
page-start-new = Neue Partie beginnen
page-play-again = Noch einmal spielen
page-end-new = Neue Partie …
page-legend-south = letzter Zug von Süd
page-legend-north = letzter Zug von Nord
page-legend-from = gesät aus
page-legend-last = letzter Samen
page-legend-captured = Fang
page-legend-extra = Zusatzzug
page-swap = Seiten tauschen (Tortenregel)
page-engine-go = Engine ziehen lassen
page-keep = Brett behalten (keine Vorgabe)
page-eval =
    .title = Bewertung: der erwartete Vorsprung von Süd am Ende
page-eval-south-ahead = ◀ Süd vorn
page-eval-north-ahead = Nord vorn ▶
page-eval-bar =
    .aria-label = Bewertungsbalken: der Anteil von Süd ist grün, der von Nord lila
page-new = Neue Partie
page-undo = Rückgängig
page-take-back = Zurücknehmen
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
    .aria-label = Zugliste: Wähle einen Zug, um die Stellung danach zu sehen
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
page-keys-step = blättern durch die Züge;
page-keys-and = und
page-keys-reach = bedienen alles.

# Das Formular der neuen Partie (index.html, app.js).
page-form-title = Neue Partie
page-form-board = Brett
page-form-houses = Mulden je Seite
page-form-seeds = Samen je Mulde
page-form-rules = Regeln
page-form-preset = Voreinstellung
page-form-capture = Fang
page-form-end = Ende
page-form-leftover = Übrige Samen bekommt
page-form-direction = Richtung
page-form-sowing = Säen
page-form-majority = Endet, sobald ein Speicher mehr als die Hälfte aller Samen hat
page-form-pie = Tortenregel (Nord darf tauschen)
page-form-handicap = Vorgabe (Nord darf zuerst einen Samen versetzen)
page-form-players = Spieler
page-form-south = Süd (erster Spieler)
page-form-north = Nord (zweiter Spieler)
page-form-clock = Bedenkzeit je Spieler
page-form-clock-none = unbegrenzt
page-form-clock-minute = 1 Min.
page-form-clock-move = { $minutes } Min. + { $seconds } s je Zug
page-form-fair = Fairer Start: remis bei perfektem Spiel (optional)
page-form-start-position = Startstellung (optional)
page-form-start-input =
    .placeholder = z. B. 4,4,4,4,4,4:0/4,4,4,4,4,4:0/S
page-form-start = Starten
page-form-cancel = Abbrechen
page-error-detail = Die Meldung des Servers (auf Englisch)
page-leave-title = Eine gewertete Partie läuft
page-leave-text = Sie zählt für deine Wertung und wird nie gelöscht. Gib sie auf (eine Niederlage) oder lass sie weiterlaufen: Sie wartet unter „Deine laufenden Partien“, und deine Bedenkzeit läuft.
page-leave-resign = Aufgeben
page-leave-keep = Weiterlaufen lassen
page-leave-cancel = Abbrechen
page-form-as-chosen = (wie unten gewählt)
page-form-none = (keiner)
page-form-friend = ein Gegenüber (per Einladungslink)
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
page-preset-seed-on = endet die Aussaat in einer nicht leeren Mulde, wird von dort weitergesät; kein Fang
page-preset-clockwise = Fang wie Standard, Säen im Uhrzeigersinn
page-preset-kgp = Standard, und die Partie endet, sobald ein Speicher mehr als die Hälfte aller Samen hat
page-preset-mkagent = die Manchester-Variante der Agenten: Kalah(7,7), Tortenregel, kein Zusatzzug beim ersten Zug
page-level-1 = 1: rechnet eine Aussaat voraus
page-level-2 = 2: drei Aussaaten
page-level-3 = 3: sechs Aussaaten
page-level-4 = 4: zwölf Aussaaten
page-level-5 = 5: so tief, wie die Zeit erlaubt
# Die Wörter der Regeln, wie die Auswahl im Formular und die Zeile der Regeln sie zeigen.
page-rule-standard = Standard
page-rule-empty = leer
page-rule-none = keiner
page-rule-side-empty = eine Seite leer
page-rule-mover-stuck = Seite am Zug leer
page-rule-owner = Besitzer
page-rule-emptier = leere Seite
page-rule-discard = niemand
page-rule-ccw = gegen den Uhrzeigersinn
page-rule-cw = im Uhrzeigersinn
page-rule-single = einfach
page-rule-relay = weiter
page-rule-empty-capture = Leerfang
page-rule-assignment = Übungsaufgabe
page-rule-seed-on = Weitersäen
page-rule-clockwise = Uhrzeigersinn
page-rule-kgp = KGP
page-rule-mkagent = MKAgent
page-rule-majority-ends = Mehrheit entscheidet
page-rule-no-first-extra = erster Zug ohne Zusatzzug
page-rule-pie = Tortenregel
page-rule-name-empty-capture = Leerfang
page-rule-name-pie = Tortenregel
page-rule-handicap = Vorgabe
page-rule-capture = Fang
page-rule-end = Ende
page-rule-leftover = Rest
page-rule-direction = Richtung
page-rule-sowing = Säen

# Die Regeln, kurz (docs/rules.md).
page-rules = Regeln
page-rules-board = Das Brett hat für jeden Spieler eine Reihe Mulden und an jedem Ende einen Speicher. Süd (der erste Spieler) besitzt die untere Reihe und den Speicher rechts, Nord die obere Reihe und den Speicher links.
page-rules-sow = Ein Zug nimmt alle Samen aus einer deiner Mulden und sät sie einzeln gegen den Uhrzeigersinn in die folgenden Mulden und deinen eigenen Speicher; den Speicher deines Gegenübers überspringst du.
page-rules-extra = Landet der letzte Samen in deinem eigenen Speicher, bekommst du einen Zusatzzug: Du ziehst noch einmal.
page-rules-capture = Landet der letzte Samen in einer leeren eigenen Mulde und liegen in der gegenüberliegenden Mulde Samen, fängst du: Beide kommen in deinen Speicher.
page-rules-end = Die Partie endet, sobald alle Mulden einer Seite leer sind; dann legt jeder Spieler die Samen, die auf seiner Seite übrig sind, in seinen eigenen Speicher.
page-rules-win = Wer mehr Samen im Speicher hat, gewinnt; bei Gleichstand ist die Partie remis.
page-rules-pie = Mit der Tortenregel darf Nord nach dem ersten Zug von Süd die Seiten tauschen, statt zu ziehen.
page-rules-handicap = Mit Vorgabe darf Nord vor dem ersten Zug einen Samen aus einer beliebigen Mulde in eine andere versetzen oder das Brett behalten.

# Was die Seite über die Partie sagt (app.js).
page-status-to-move = { $who } ist am Zug
page-status-pie = { $who } ist am Zug: aus einer Mulde säen oder die Seiten tauschen
page-status-handicap = { $who } entscheidet über die Vorgabe: das Brett behalten oder einen Samen versetzen
page-status-aborted = Partie abgebrochen: { $side } hat den ersten Zug nicht rechtzeitig gemacht. Kein Ergebnis.
page-status-lost-on-time = Partie vorbei: { $loser } hat die Zeit überschritten; { $winner } gewinnt.
page-status-resigned = Partie vorbei: { $loser } hat aufgegeben; { $winner } gewinnt.
page-status-won = Partie vorbei: Süd { $south }, Nord { $north }. { $winner } gewinnt mit { $margin } Samen Vorsprung.
page-status-draw = Partie vorbei: Süd { $south }, Nord { $north }. Die Partie endet remis.
page-your-move = Du bist am Zug
page-your-move-pie = Du bist am Zug: Säe aus einer Mulde oder tausche die Seiten
page-your-handicap = Du entscheidest über die Vorgabe: Behalte das Brett oder versetze einen Samen
page-thinking = { $status } (denkt nach …)
page-waiting = { $status } ({ $why })
page-waiting-earlier = eine frühere Stellung: Mit → oder der Zugliste geht es vorwärts
page-waiting-paused = drücke „Engine ziehen lassen“, damit sie spielt
page-rules-line = { $rules } · Süd: { $south } · Nord: { $north }
page-clock =
    .aria-label = { $side ->
        [South] Uhr von Süd
       *[North] Uhr von Nord
    }
page-busy-retrying = Der Server ist ausgelastet, neuer Versuch …
page-no-eval-rated = Keine Bewertung, solange eine gewertete Partie läuft
page-no-eval-friends = Keine Bewertung, solange eine Einladungspartie läuft
page-eval-off = Bewertung aus
page-evaluating = Bewertung läuft …
page-eval-paused = Bewertung pausiert: Der Server ist ausgelastet
page-eval-draw = remis
page-eval-wins = { $side } gewinnt mit { $lead } Samen Vorsprung
page-eval-final = Ergebnis: { $outcome }
page-eval-solved = Gelöst ✓: { $outcome } bei perfektem Spiel
page-eval-even = Ausgeglichen
page-eval-lead = { $side } +{ NUMBER($lead, minimumFractionDigits: 2, maximumFractionDigits: 2) }
page-eval-depth = { $who } (Tiefe { $depth })
page-eval-depth-best = { $who } (Tiefe { $depth }; am besten für { $side }: { $what })

# Das Ende einer Partie (app.js).
page-end-you-resigned = Du hast aufgegeben.
page-end-friend-resigned = Dein Gegenüber hat aufgegeben: Du hast gewonnen.
page-end-friend-resigned-name = { $name } hat aufgegeben: Du hast gewonnen.
page-end-resigned = { $side } hat aufgegeben: { $winner } hat gewonnen.
page-end-you-lost-on-time = Du hast auf Zeit verloren.
page-end-friend-out-of-time = Dein Gegenüber hat die Zeit überschritten: Du hast gewonnen.
page-end-friend-out-of-time-name = { $name } hat die Zeit überschritten: Du hast gewonnen.
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
page-moves-start-label = Die Startstellung
page-move-label = { $number }. { $side } { $action }
page-move-captures = , fängt { $count }
page-move-extra = , Zusatzzug

# Tipp, Lösen, Zugübersicht (app.js).
page-hint-thinking = Tipp wird gesucht …
page-hint-exact = genau { $value }
page-hint-said = Tipp für { $side }: { $what } (für { $side } { $value } Samen wert, Tiefe { $depth }).
page-solving = Wird gelöst …
page-solve-draw = remis
page-solve-wins = { $side } gewinnt mit { $margin } Samen Vorsprung
page-solve-best = ; am besten für { $side }: Mulde { $house }
page-solved = Gelöst: Wert { $value } für Süd, { $outcome } bei perfektem Spiel{ $best }.
page-not-solved = In der Zeit nicht gelöst: Süd erreicht zwischen { $lower } und { $upper }.
page-explorer-not-now = Nicht, solange eine Einladungspartie oder eine gewertete Partie läuft.
page-explorer-solving = Jeder Zug wird gelöst …
page-explorer-busy = Der Server ist ausgelastet: Öffne die Zugübersicht gleich noch einmal
page-explorer-waiting = Alle Suchen des Servers sind belegt: Gleich wird noch einmal gefragt …
page-verdict-win = Sieg mit { $value } Samen Vorsprung
page-verdict-loss = Niederlage mit { $value } Samen Rückstand
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
page-explorer-caption = Speicherdifferenz am Ende für { $side } (am Zug)
page-explorer-book = aus dem Eröffnungsbuch
page-explorer-millis = gelöst in { NUMBER($seconds, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
page-explorer-fair = ein fairer Start, ein bewiesenes Remis; die Züge nach { NUMBER($seconds, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
page-explorer-over = Die Partie ist vorbei: { $verdict } für { $side }.
page-explorer-exact = Exakt ✓: { $verdict } für { $side } bei perfektem Spiel ({ $from }).
page-explorer-open = Nicht jeder Zug ist in der Zeit entschieden: { $side } erreicht { $lower } bis { $upper } ({ $from }).
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
page-link-not-here = Die Partie aus dem Link ist nicht in diesem Browser: { $error }.
page-link-no-game = Der Link führt zu keiner Partie auf diesem Server: Er ist vertippt oder die Partie wurde gelöscht.
page-link-refused = Die Partie aus dem Link kann nicht gespielt werden: { $error }; { $kept ->
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
page-server-down = Der Server antwortet nicht: Vielleicht wurde er beendet oder das Netz ist ausgefallen.
page-engine-time-range = engine-time in der Adresse muss zwischen 1 und 60000 ms liegen, nicht { $asked }: Die Engine rechnet { $used } ms.
page-engine-time-server = engine-time in der Adresse gilt nur für die Engine im Browser: Die Engine dieses Servers rechnet so lange, wie beim Start des Servers festgelegt.
page-changed = die Partie hat sich geändert, während die Engine nachdachte
page-kept-unreadable = ihre gespeicherten Daten sind nicht lesbar ({ $error }); sie wurden beiseitegelegt
page-not-in-browser = es gibt keine Partie { $id } in diesem Browser: Beginne eine neue
page-no-request = keine solche Anfrage in diesem Browser: { $method } { $path }

# Der Benchmark der Engine (bench.html, bench.js).
page-bench-title = Kalah: der Benchmark der Engine in diesem Browser
page-bench-heading = Der Benchmark der Engine in diesem Browser
page-bench-about = Die Stellungen von „kalah bench“, im Web Worker der Seite auf einem Thread bis zur Tiefe von „?depth=“ durchsucht (13 ohne Angabe, wie bei „kalah bench“). Bei Tiefe 13 müssen die Knoten der nativen Signatur entsprechen.
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

friends-down = Der Server antwortet nicht: Die Seite verbindet sich von selbst wieder, sobald er zurück ist.
friends-also = Du spielst diese Partie auch auf einem anderen Gerät oder in einem anderen Tab.
friends-copy = Kopieren
# $label: der Name des Links, z. B. „Zuschauerlink“.
friends-link-copied = { $label } kopiert.
friends-link-label = { $label }:
friends-selected = Markiert: Drücke Strg+C (⌘C) zum Kopieren.
friends-refused-watching = Das können nur die Spieler dieser Partie; hier schaust du nur zu.
friends-refused-changed = Die Partie hat sich inzwischen geändert; hier ist sie, wie sie jetzt steht.
# $side: South oder North.
friends-you-play = Du spielst { $side ->
        [South] Süd
       *[North] Nord
    }.
friends-watching = Du schaust dieser Partie zu.
friends-takeback-asked = Dein Gegenüber bittet darum, den letzten Zug zurückzunehmen.
friends-takeback-asked-name = { $name } bittet darum, den letzten Zug zurückzunehmen.
friends-takeback-waiting = Du hast um die Rücknahme deines letzten Zugs gebeten; jetzt entscheidet dein Gegenüber.
friends-takeback-waiting-name = Du hast um die Rücknahme deines letzten Zugs gebeten; jetzt entscheidet { $name }.
friends-takeback-yours-accepted = Dein Gegenüber hat die Rücknahme angenommen: Dein letzter Zug ist zurückgenommen.
friends-takeback-yours-accepted-name = { $name } hat die Rücknahme angenommen: Dein letzter Zug ist zurückgenommen.
friends-takeback-yours-refused = Dein Gegenüber hat die Rücknahme abgelehnt.
friends-takeback-yours-refused-name = { $name } hat die Rücknahme abgelehnt.
friends-takeback-you-accepted = Du hast die Rücknahme angenommen: Dein Gegenüber ist wieder am Zug.
friends-takeback-you-accepted-name = Du hast die Rücknahme angenommen: { $name } ist wieder am Zug.
friends-takeback-you-refused = Du hast die Rücknahme abgelehnt.
# Für Zuschauer. $side: South oder North; $answer: accepted oder refused.
friends-takeback-answered = Die Rücknahme von { $side ->
        [South] Süd
       *[North] Nord
    } wurde { $answer ->
        [accepted] angenommen
       *[refused] abgelehnt
    }.
friends-send = Schicke deinem Gegenüber den Einladungslink (unter den Knöpfen).
friends-rematch-open = Revanche spielen
friends-rematch-offered = Revanche angeboten; jetzt entscheidet dein Gegenüber.
friends-rematch-offered-name = Revanche angeboten; jetzt entscheidet { $name }.
friends-rematch-accept = Revanche annehmen
friends-rematch = Revanche (Seiten getauscht)
friends-takeback-accept = Rücknahme annehmen
friends-takeback-refuse = Ablehnen
friends-resign = Aufgeben
friends-resign-confirm = Diese Partie aufgeben?
friends-invitation-link = Einladung für dein Gegenüber
friends-watch-link = Zuschauerlink
friends-links = Einladungs- und Zuschauerlink
friends-seat-elsewhere = Auf einem anderen Gerät weiterspielen
friends-seat-warning = Mit diesem Link spielt jeder auf deinem Platz: Öffne ihn nur auf deinen eigenen Geräten.
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
friends-status-handicap = Du entscheidest über die Vorgabe: Behalte das Brett oder versetze einen Samen
friends-status-handicap-friend = Dein Gegenüber entscheidet über die Vorgabe
friends-status-handicap-name = { $name } entscheidet über die Vorgabe
friends-status-pie = Du bist am Zug: Säe aus einer Mulde oder tausche die Seiten
friends-status-pie-friend = Dein Gegenüber ist am Zug (darf die Seiten tauschen)
friends-status-pie-name = { $name } ist am Zug (darf die Seiten tauschen)
friends-status-move = Du bist am Zug
friends-status-move-friend = Dein Gegenüber ist am Zug
friends-status-move-name = { $name } ist am Zug
friends-own-invitation = Das ist die Einladung, die du verschickt hast: Sie ist für dein Gegenüber. Du behältst hier deinen eigenen Platz.
friends-other-seat = Dieser Link gehört zum anderen Platz einer Partie, die du hier spielst: Du behältst deinen eigenen Platz.
friends-entry = { $rules }, { $who }: { $turn }
friends-entry-people = zwei Menschen an einem Bildschirm
friends-entry-engine = gegen die Engine
friends-entry-player = gegen dein Gegenüber, du spielst { $side ->
        [South] Süd
       *[North] Nord
    }
friends-entry-player-name = gegen { $name }, du spielst { $side ->
        [South] Süd
       *[North] Nord
    }
friends-entry-friends = Einladungspartie
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
lobby-carry-warning = Mit diesem Link spielt jeder unter deinem Namen: Öffne ihn nur auf deinen eigenen Geräten.
lobby-carry-field =
    .aria-label = Der Link mit deinem Namen
lobby-carry-copy = Kopieren
lobby-carry-copied = Der Link mit deinem Namen wurde kopiert.
lobby-password = Oder ein Passwort (optional, mindestens 8 Zeichen)
lobby-password-set = Passwort festlegen
lobby-password-done = Dein Passwort ist festgelegt: Melde dich damit und mit deinem Namen auf jedem Gerät an.
lobby-forget = Meinen Namen hier vergessen
lobby-forget-confirm = Deinen Namen in diesem Browser vergessen? Bewahre zuerst den Link mit deinem Namen auf, sonst ist der Name verloren.
lobby-board = Brett
lobby-rules-empty-capture = Kalah(6,4), Leerfang
lobby-rules-pie = Kalah(6,6), Tortenregel
lobby-clock = Bedenkzeit
lobby-clock-option-none = unbegrenzt
lobby-clock-option = { $minutes } Min. + { $increment } s
lobby-colour = Du spielst
lobby-colour-random = beliebige Seite
lobby-colour-south = Süd (beginnt)
lobby-colour-north = Nord
lobby-rated-box = Gewertet
lobby-rated-needs-clock = Eine gewertete Partie hat eine Bedenkzeit: Wähle eine
lobby-offer = Herausforderung anbieten
lobby-quick = Gegenüber suchen
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
lobby-leaderboard-none = Noch steht keine Wertung fest (eine Wertung bleibt vorläufig und trägt ein ?, bis sie sicher ist).
lobby-clock-none = unbegrenzte Bedenkzeit
lobby-clock-minutes = { $minutes } Min.
lobby-clock-seconds = { $seconds } s
lobby-clock-increment = { $base } + { $increment } s
lobby-carried = Du spielst jetzt in diesem Browser als { $name }.
lobby-carried-none = Der Link enthält keinen Namen: { $error }
lobby-name-unknown = Dein Name { $name } ist hier nicht mehr bekannt: Wähle einen anderen.
lobby-guest-only = (Gast: nur ungewertete Partien)
lobby-rating-first = Wertung 1500? in jeder Brettfamilie bis zu deiner ersten gewerteten Partie
lobby-challenge-open = Deine Herausforderung ist offen: Sie wartet hier { $minutes } Minuten.
lobby-game-begins = Deine Partie gegen { $name } beginnt.
lobby-game-begins-opponent = Deine Partie gegen dein Gegenüber beginnt.
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

searches-summary = Suchbäume zeichnen: Minimax und Alpha-Beta
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
    .aria-label = Die Aufrufe der Reihe nach durchgehen
searches-first =
    .aria-label = Erster Aufruf
searches-back = ◀ Zurück
searches-next = Weiter ▶
searches-last =
    .aria-label = Letzter Aufruf
searches-expand = Alle aufklappen
searches-fold = Alle zuklappen
searches-tree =
    .aria-label = Die Aufrufe von Max und Min, jeder unter seinem Aufrufer, der Reihe nach
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
searches-untraced = Kein Baum: { $search } bis Tiefe { $depth } braucht mehr als { $limit } Aufrufe von Max und Min, die Höchstzahl für eine gezeichnete Suche. Wähle eine kleinere Tiefe oder eine Suche, die Zweige abschneidet.
searches-best-none = kein Zug (die Partie ist vorbei)
searches-drawn = { $search } bis Tiefe { $depth }: { $count ->
        [one] { $calls } Aufruf
       *[other] { $calls } Aufrufe
    }, Wert { $value } für die Seite am Zug, bester Zug: { $best }.
searches-searching = Suche läuft …

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
kgp-download = Aufzeichnung herunterladen
kgp-standings-rank = Platz
kgp-standings-agent = Agent
kgp-standings-games = Partien
kgp-standings-points = Punkte
kgp-standings-wins = Siege
kgp-standings-draws = Remis
kgp-standings-losses = Niederlagen
kgp-standings-elo = Elo (95 %)
kgp-standings-none = Noch ist keine Partie zu Ende.
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

# $detail: what is wrong, in the API's English words (the new-game form's rules, position or
# record; the lobby's offer).
error-bad = Ungültige Eingabe: Das nimmt der Server so nicht an.
error-over = Die Partie ist vorbei: Es gibt keine Züge mehr.
error-engines-seat = { $side ->
        [north] Nord
       *[south] Süd
    } wird von der Engine gespielt: Lass die Engine ziehen.
error-persons-seat = { $side ->
        [north] Nord
       *[south] Süd
    } wird von einem Menschen gespielt: Warte auf dessen Zug.
error-not-yours = { $side ->
        [north] Nord
       *[south] Süd
    } ist der Platz deines Gegenübers: Dort zieht nur dein Gegenüber.
error-not-a-player = Nur die Spieler dieser Partie dürfen sie ändern; hier schaust du nur zu (jeder Spieler spielt über seinen eigenen Link).
error-wrong-token = Dieser Schlüssel gehört zu keinem Platz dieser Partie: Nimm den Link, den du bekommen hast.
error-unowned = Diese Partie stammt von einem älteren kalah ohne Platzschlüssel: Du kannst zuschauen und ihre Aufzeichnung in eine neue Partie laden, sie aber nicht ändern.
error-rematch-not-over = Die Partie ist noch nicht vorbei: Eine Revanche folgt erst auf ihr Ende.
error-rematch-begun = Die Revanche hat schon begonnen.
error-takeback-rated = Eine gewertete Partie kennt keine Rücknahme: Jeder Zug gilt.
error-takeback-no-move = Du hast keinen Zug, den du zurücknehmen könntest.
error-takeback-asked = Um eine Rücknahme wurde schon gebeten.
error-takeback-none = Es wurde um keine Rücknahme gebeten.
error-takeback-yours = Um diese Rücknahme hast du selbst gebeten: Dein Gegenüber antwortet darauf.
error-takeback-nothing = Es gibt nichts zurückzunehmen.
error-takeback = Die Rücknahme ist jetzt nicht möglich.
error-thinking = Die Engine denkt noch nach.
error-changed = Die Partie hat sich geändert, während die Engine nachdachte (durch einen Zug, eine Rücknahme oder weil sie geschlossen wurde): Versuche es noch einmal.
error-stale = Der Zug wurde auf Stand { $made } der Partie gemacht, jetzt ist sie bei Stand { $now }: Schau noch einmal.
error-illegal = Diesen Zug erlauben die Regeln nicht.
error-history = Diesen Zug gibt es im Verlauf der Partie nicht.
error-ended = Die Partie wurde { $how ->
        [time] durch Zeitüberschreitung verloren
        [resigned] durch Aufgabe verloren
        [aborted] abgebrochen
       *[other] beendet
    }: Ihre Züge bleiben, wie sie gespielt wurden; beginne eine neue Partie oder lade ihre Aufzeichnung.
error-friends-step = In einer Einladungspartie geht es nur durch eine Rücknahme zurück, die dein Gegenüber annimmt.
error-no-help = Eine laufende Einladungspartie bekommt keinen Tipp und keine Analyse: Frage danach, wenn sie vorbei ist.
error-rated = In einer gewerteten Partie zählt jeder Zug: Bis sie vorbei ist, gibt es kein Rückgängig oder Wiederholen und keine Tipps oder Analysen.
error-kept = Eine beendete Einladungspartie gehört beiden Spielern: Sie bleibt im Archiv.
error-begun = Beide Spieler haben gezogen: Gib lieber auf (eine Einladungspartie lässt sich nur löschen, bevor sie beginnt).
error-rated-kept = Eine gewertete Partie zählt, sobald beide Spieler gezogen haben: Sie wird nie gelöscht, nur aufgegeben oder zu Ende gespielt.
error-rated-untimed = Eine gewertete Partie hat eine Bedenkzeit: Wähle eine oder spiele ungewertet.
error-no-friends = Einladungspartien brauchen kalah serve: Diese Seite spielt ohne Server.
error-stopping = Der Server wird gerade beendet: Versuche es gleich noch einmal.
error-no-game = Es gibt keine Partie „{ $id }“: Sie wurde gelöscht oder gab es nie.
error-store = Die Datenbank der Partien antwortet nicht: Es wurde nichts geändert; versuche es noch einmal.
error-changed-elsewhere = Die Partie wurde inzwischen über einen anderen Server geändert und ist jetzt bei Stand { $version }: Von dieser Anfrage wurde nichts ausgeführt; schau noch einmal.
error-full = Der Server hat schon die Höchstzahl von { $most } Partien: Schließe eine oder versuche es später noch einmal.
error-engine-failed = Die Suche der Engine ist fehlgeschlagen.
error-engines-busy = Der Server ist ausgelastet: Alle Engines denken gerade nach; versuche es in einer Sekunde noch einmal.
error-nothing-here = Unter dieser Adresse gibt es nichts.
error-too-many = Zu viele Anfragen von deiner Adresse: Warte einen Moment und versuche es dann noch einmal.
error-other-site = Eine andere Website kann hier keine Partien ändern.
error-no-challenge = Diese Herausforderung ist nicht mehr offen: Sie wurde angenommen, zurückgezogen oder ist abgelaufen.
error-challenge-own = Das ist deine eigene Herausforderung: Annehmen kann sie nur ein anderer Spieler (ziehe sie stattdessen zurück).
error-challenge-not-yours = Diese Herausforderung ist von einem anderen Spieler: Nur wer sie gestellt hat, kann sie zurückziehen.
error-guest-rated = Gäste spielen nur ungewertete Partien: Wähle einen Namen, um gewertet zu spielen.
error-challenges-too-many = Du hast schon 3 offene Herausforderungen: Ziehe eine zurück oder warte, bis eine angenommen wird oder abläuft.
error-name-malformed = Ein Name hat 3 bis 20 Zeichen: Buchstaben (a bis z), Ziffern, - oder _, und beginnt mit einem Buchstaben.
error-name-reserved = Der Name { $name } ist dem Server vorbehalten (Namen, die mit guest, engine, removed, admin, kalah oder anonymous beginnen): Wähle einen anderen.
error-name-taken = Der Name { $name } ist vergeben (Groß- und Kleinschreibung zählen nicht): Wähle einen anderen.
error-no-guest-name = Kein Gastname ist frei: Versuche es noch einmal.
error-no-such-secret = Kein Spieler hat diesen Schlüssel: Wähle einen Namen oder öffne den Link mit deinem Namen.
error-guest-password = Ein Gastname hat kein Passwort: Wähle einen eigenen Namen.
error-password-length = Ein Passwort hat 8 bis 200 Zeichen, nicht { $length }.
error-name-removed = Der Name { $name } wurde entfernt.
error-sign-in = Name oder Passwort ist falsch (oder der Name hat kein Passwort).
error-sign-in-wait = Zu viele falsche Passwörter für diesen Namen: Versuche es in { $seconds ->
        [one] einer Sekunde
       *[other] { $seconds } Sekunden
    } noch einmal.
error-passwords-busy = Der Server prüft gerade viele andere Passwörter: Versuche es in einer Sekunde noch einmal.
error-no-player = Kein Spieler heißt „{ $name }“.
