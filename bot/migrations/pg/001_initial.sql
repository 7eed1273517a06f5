-- 001 (PostgreSQL): the double-entry ledger, members and game tables; the same schema as
-- ../001_initial.sql, in PostgreSQL's types. Ids are BIGINT (Discord snowflakes), times
-- ISO-8601 text as in SQLite. The database enforces: no balance below zero except the
-- house's (CHECK), one open table per channel (unique index), an append-only ledger.

CREATE TABLE game_tables (
    id          TEXT    PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    game        TEXT    NOT NULL CHECK (game IN ('pontoon', 'baccarat')),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    version     BIGINT  NOT NULL,
    state_json  TEXT    NOT NULL,
    message_id  BIGINT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    closed_at   TEXT
);
CREATE UNIQUE INDEX game_tables_open_channel ON game_tables (channel_id) WHERE status = 'open';
CREATE INDEX game_tables_status ON game_tables (status);

CREATE TABLE accounts (
    id          TEXT    PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('member', 'escrow', 'kitty', 'house')),
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT,
    table_id    TEXT    REFERENCES game_tables (id),
    balance     BIGINT  NOT NULL DEFAULT 0
                CONSTRAINT balance_not_negative CHECK (kind = 'house' OR balance >= 0),
    created_at  TEXT    NOT NULL,
    CHECK ((kind = 'member') = (user_id IS NOT NULL)),
    CHECK ((kind IN ('escrow', 'kitty')) = (table_id IS NOT NULL))
);
CREATE UNIQUE INDEX accounts_member ON accounts (guild_id, user_id) WHERE kind = 'member';
CREATE INDEX accounts_guild_balance ON accounts (guild_id, kind, balance);
CREATE INDEX accounts_table ON accounts (table_id) WHERE table_id IS NOT NULL;

CREATE TABLE members (
    guild_id       BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    account_id     TEXT   NOT NULL UNIQUE REFERENCES accounts (id),
    joined_at      TEXT   NOT NULL,
    last_daily_at  TEXT,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE transfers (
    id          BIGSERIAL PRIMARY KEY,
    ts          TEXT    NOT NULL,
    guild_id    BIGINT  NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('transfer', 'grant')),
    src         TEXT    REFERENCES accounts (id),
    dst         TEXT    NOT NULL REFERENCES accounts (id),
    amount      BIGINT  NOT NULL CHECK (amount > 0),
    reason      TEXT    NOT NULL,
    table_id    TEXT,
    by_user_id  BIGINT,
    CHECK ((kind = 'grant') = (src IS NULL)),
    CHECK (src IS NULL OR src <> dst)
);
CREATE INDEX transfers_src ON transfers (src);
CREATE INDEX transfers_dst ON transfers (dst);
CREATE INDEX transfers_table ON transfers (table_id);

-- The ledger is append-only.
CREATE FUNCTION transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
END;
$$;
CREATE TRIGGER transfers_no_update BEFORE UPDATE OR DELETE ON transfers
    FOR EACH ROW EXECUTE FUNCTION transfers_append_only();
CREATE TRIGGER transfers_no_truncate BEFORE TRUNCATE ON transfers
    FOR EACH STATEMENT EXECUTE FUNCTION transfers_append_only();

CREATE TABLE table_actions (
    id           BIGSERIAL PRIMARY KEY,
    table_id     TEXT    NOT NULL REFERENCES game_tables (id),
    version      BIGINT  NOT NULL,
    ts           TEXT    NOT NULL,
    description  TEXT    NOT NULL
);
CREATE INDEX table_actions_table ON table_actions (table_id, id);
