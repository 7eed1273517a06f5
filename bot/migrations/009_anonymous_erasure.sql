-- 009: erasing a member (/privacy delete, /chips forget) anonymises their ledger rows.
--
-- A new account kind, 'anon': the account an erased member's ledger rows are moved to,
-- named `anon:<random token>` (a fresh token per erasure and server, never derived from
-- the user id), with no user id and never any chips. The ledger stays append-only
-- except for exactly one rewrite, done in the erasure's own transaction
-- (bot/storage/privacy.py): a row's `member:<g>:<u>` source or destination replaced by
-- an 'anon' account of the same server, and its granting admin's id (by_user_id)
-- cleared. Every other column of the row must stay as it was; a DELETE is refused.
-- `erasures` records that an erasure happened (when, how many accounts and rows), and
-- no id. Members erased before this migration (their chips moved to the house with the
-- reason 'member data erased', no members row left, nothing since) are anonymised here
-- the same way. SQLite cannot change a CHECK in place: accounts is rebuilt the
-- documented way.
-- pragma: foreign_keys=off

CREATE TABLE accounts_new (
    id          TEXT    PRIMARY KEY,                  -- member:{g}:{u} | escrow:{t} | kitty:{t} | house:{g} | anon:{token}
    kind        TEXT    NOT NULL CHECK (kind IN ('member', 'escrow', 'kitty', 'house', 'anon')),
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER,                              -- member accounts only
    table_id    TEXT    REFERENCES game_tables (id),  -- escrow and kitty accounts only
    balance     INTEGER NOT NULL DEFAULT 0
                CHECK (typeof(balance) = 'integer' AND (kind = 'house' OR balance >= 0)),
    created_at  TEXT    NOT NULL,
    CHECK ((kind = 'member') = (user_id IS NOT NULL)),
    CHECK ((kind IN ('escrow', 'kitty')) = (table_id IS NOT NULL)),
    CHECK (kind <> 'anon' OR balance = 0)
);
INSERT INTO accounts_new (id, kind, guild_id, user_id, table_id, balance, created_at)
SELECT id, kind, guild_id, user_id, table_id, balance, created_at FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_new RENAME TO accounts;
CREATE UNIQUE INDEX accounts_member ON accounts (guild_id, user_id) WHERE kind = 'member';
CREATE INDEX accounts_guild_balance ON accounts (guild_id, kind, balance);

DROP TRIGGER transfers_no_update;
CREATE TRIGGER transfers_no_update BEFORE UPDATE ON transfers
WHEN NOT COALESCE((
    NEW.id = OLD.id AND NEW.ts = OLD.ts AND NEW.guild_id = OLD.guild_id
    AND NEW.kind = OLD.kind AND NEW.amount = OLD.amount AND NEW.reason = OLD.reason
    AND NEW.table_id IS OLD.table_id
    AND (NEW.by_user_id IS OLD.by_user_id OR NEW.by_user_id IS NULL)
    AND (NEW.src IS OLD.src OR (OLD.src LIKE 'member:%' AND NEW.src IN (
        SELECT id FROM accounts WHERE kind = 'anon' AND guild_id = OLD.guild_id)))
    AND (NEW.dst = OLD.dst OR (OLD.dst LIKE 'member:%' AND NEW.dst IN (
        SELECT id FROM accounts WHERE kind = 'anon' AND guild_id = OLD.guild_id)))
), 0)
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- Members erased before this migration: the same rewrite, a random token each.
CREATE TABLE erased_before_009 AS
SELECT a.id AS old_id, 'anon:' || lower(hex(randomblob(16))) AS new_id, a.guild_id AS guild_id
FROM accounts a
WHERE a.kind = 'member' AND a.balance = 0
  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.account_id = a.id)
  AND EXISTS (SELECT 1 FROM transfers t WHERE t.src = a.id AND t.reason = 'member data erased');
INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at)
SELECT new_id, 'anon', guild_id, NULL, NULL, 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM erased_before_009;
UPDATE transfers SET src = (SELECT e.new_id FROM erased_before_009 e WHERE e.old_id = transfers.src)
WHERE src IN (SELECT old_id FROM erased_before_009);
UPDATE transfers SET dst = (SELECT e.new_id FROM erased_before_009 e WHERE e.old_id = transfers.dst)
WHERE dst IN (SELECT old_id FROM erased_before_009);
DELETE FROM accounts WHERE id IN (SELECT old_id FROM erased_before_009);
DROP TABLE erased_before_009;

CREATE TABLE erasures (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    erased_at      TEXT    NOT NULL,
    scope          TEXT    NOT NULL CHECK (scope IN ('everywhere', 'server')),
    accounts       INTEGER NOT NULL CHECK (accounts >= 0),
    ledger_rows    INTEGER NOT NULL CHECK (ledger_rows >= 0),
    chips_to_house INTEGER NOT NULL CHECK (chips_to_house >= 0)
);
CREATE TRIGGER erasures_no_update BEFORE UPDATE ON erasures
BEGIN
    SELECT RAISE(ABORT, 'the erasure record is append-only');
END;
CREATE TRIGGER erasures_no_delete BEFORE DELETE ON erasures
BEGIN
    SELECT RAISE(ABORT, 'the erasure record is append-only');
END;
