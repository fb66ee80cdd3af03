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
