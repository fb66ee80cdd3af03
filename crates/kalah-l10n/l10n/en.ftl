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
