#!/bin/sh
# First start of the compose database: the owner role (migrations) and the web role (web,
# worker, beat), which grant_web_role then limits to SELECT and INSERT on the event table.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner_password="$OWNER_DB_PASSWORD" -v web_password="$WEB_DB_PASSWORD" <<'SQL'
CREATE ROLE azulsite_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE azulsite_web LOGIN PASSWORD :'web_password';
CREATE DATABASE azulsite OWNER azulsite_owner;
SQL
