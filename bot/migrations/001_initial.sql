-- 001: the double-entry ledger, members and game tables.
--
-- Every chip movement is one row of `transfers`; `accounts.balance` is a cached sum the
-- application keeps in step within the same transaction (bot/audit.py proves it).
-- Grants (starting chips, /daily, admin grants) are the only rows without a source.

CREATE TABLE accounts (
    id          TEXT    PRIMARY KEY,                  -- member:{g}:{u} | escrow:{t} | kitty:{t} | house:{g}
    kind        TEXT    NOT NULL CHECK (kind IN ('member', 'escrow', 'kitty', 'house')),
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER,                              -- member accounts only
    table_id    TEXT    REFERENCES game_tables (id),  -- escrow and kitty accounts only
    balance     INTEGER NOT NULL DEFAULT 0
                CHECK (typeof(balance) = 'integer' AND (kind = 'house' OR balance >= 0)),
    created_at  TEXT    NOT NULL,
    CHECK ((kind = 'member') = (user_id IS NOT NULL)),
    CHECK ((kind IN ('escrow', 'kitty')) = (table_id IS NOT NULL))
);
CREATE UNIQUE INDEX accounts_member ON accounts (guild_id, user_id) WHERE kind = 'member';
CREATE INDEX accounts_guild_balance ON accounts (guild_id, kind, balance);

CREATE TABLE members (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    account_id     TEXT    NOT NULL UNIQUE REFERENCES accounts (id),
    joined_at      TEXT    NOT NULL,                  -- first sight (starting grant)
    last_daily_at  TEXT,                              -- ISO-8601 UTC of the last /daily claim
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE transfers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    ts          TEXT    NOT NULL,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('transfer', 'grant')),
    src         TEXT    REFERENCES accounts (id),     -- NULL exactly for grants
    dst         TEXT    NOT NULL REFERENCES accounts (id),
    amount      INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount > 0),
    reason      TEXT    NOT NULL,
    table_id    TEXT,
    by_user_id  INTEGER,                              -- who granted (admin grants)
    CHECK ((kind = 'grant') = (src IS NULL)),
    CHECK (src IS NULL OR src <> dst)
);
CREATE INDEX transfers_src ON transfers (src);
CREATE INDEX transfers_dst ON transfers (dst);
CREATE INDEX transfers_table ON transfers (table_id);

-- The ledger is append-only.
CREATE TRIGGER transfers_no_update BEFORE UPDATE ON transfers
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER transfers_no_delete BEFORE DELETE ON transfers
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TABLE game_tables (
    id          TEXT    PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (game IN ('pontoon', 'baccarat')),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    version     INTEGER NOT NULL,
    state_json  TEXT    NOT NULL,
    message_id  INTEGER,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    closed_at   TEXT
);
-- One open table per channel.
CREATE UNIQUE INDEX game_tables_open_channel ON game_tables (channel_id) WHERE status = 'open';
CREATE INDEX game_tables_status ON game_tables (status);

CREATE TABLE table_actions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id     TEXT    NOT NULL REFERENCES game_tables (id),
    version      INTEGER NOT NULL,
    ts           TEXT    NOT NULL,
    description  TEXT    NOT NULL
);
CREATE INDEX table_actions_table ON table_actions (table_id, id);
