-- The role and the database `kalah serve --db postgres://kalah:PASSWORD@HOST/kalah` uses.
--
-- One file for both places that make a PostgreSQL for kalah: deploy/compose.yaml mounts it into
-- the official image's /docker-entrypoint-initdb.d (run once, by psql as the superuser, when the
-- data volume is empty), and crates/kalah-cli/tests/postgres.rs runs it with psql on the fresh
-- cluster it starts, so the servers are tested with exactly the rights they get in production.
--
-- kalah is not a superuser: it owns its database, so it may make and alter its tables there
-- (kalah makes its schema itself and brings it up to date), and LISTEN/NOTIFY, advisory locks and
-- pg_stat_activity (its own sessions) need no more.

\set ON_ERROR_STOP on

CREATE ROLE kalah LOGIN;

-- UTF-8 and the C locale, as the test's initdb: the same text and sorting everywhere, whatever
-- the cluster's own locale.
CREATE DATABASE kalah OWNER kalah TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';

-- The password comes from the environment, never from this file: the compose file passes
-- KALAH_DB_PASSWORD from its env file. Without it (the test, whose cluster trusts loopback) the
-- role has none.
\getenv kalah_password KALAH_DB_PASSWORD
\if :{?kalah_password}
ALTER ROLE kalah PASSWORD :'kalah_password';
\endif
