-- 009 (PostgreSQL): erasing a member anonymises their ledger rows, as
-- ../009_anonymous_erasure.sql: an 'anon' account kind (no user id, never any chips),
-- the append-only guard letting exactly one rewrite through (a `member:<g>:<u>` source
-- or destination replaced by an 'anon' account of the same server, the granting
-- admin's id cleared, every other column unchanged), and the `erasures` record; members
-- erased before this migration anonymised the same way.

ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
    CHECK (kind IN ('member', 'escrow', 'kitty', 'house', 'anon'));
ALTER TABLE accounts ADD CONSTRAINT anon_holds_nothing CHECK (kind <> 'anon' OR balance = 0);

CREATE OR REPLACE FUNCTION transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF NEW.id = OLD.id AND NEW.ts = OLD.ts AND NEW.guild_id = OLD.guild_id
           AND NEW.kind = OLD.kind AND NEW.amount = OLD.amount AND NEW.reason = OLD.reason
           AND NEW.table_id IS NOT DISTINCT FROM OLD.table_id
           AND (NEW.by_user_id IS NOT DISTINCT FROM OLD.by_user_id OR NEW.by_user_id IS NULL)
           AND (NEW.src IS NOT DISTINCT FROM OLD.src
                OR (OLD.src LIKE 'member:%' AND EXISTS (
                    SELECT 1 FROM accounts a
                    WHERE a.id = NEW.src AND a.kind = 'anon' AND a.guild_id = OLD.guild_id)))
           AND (NEW.dst = OLD.dst
                OR (OLD.dst LIKE 'member:%' AND EXISTS (
                    SELECT 1 FROM accounts a
                    WHERE a.id = NEW.dst AND a.kind = 'anon' AND a.guild_id = OLD.guild_id)))
        THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'the ledger is append-only';
END;
$$;

CREATE TEMP TABLE erased_before_009 ON COMMIT DROP AS
SELECT a.id AS old_id, 'anon:' || replace(gen_random_uuid()::text, '-', '') AS new_id,
       a.guild_id AS guild_id
FROM accounts a
WHERE a.kind = 'member' AND a.balance = 0
  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.account_id = a.id)
  AND EXISTS (SELECT 1 FROM transfers t WHERE t.src = a.id AND t.reason = 'member data erased');
INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at)
SELECT new_id, 'anon', guild_id, NULL, NULL, 0,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
FROM erased_before_009;
UPDATE transfers t SET src = e.new_id FROM erased_before_009 e WHERE t.src = e.old_id;
UPDATE transfers t SET dst = e.new_id FROM erased_before_009 e WHERE t.dst = e.old_id;
DELETE FROM accounts WHERE id IN (SELECT old_id FROM erased_before_009);

CREATE TABLE erasures (
    id             BIGSERIAL PRIMARY KEY,
    erased_at      TEXT    NOT NULL,
    scope          TEXT    NOT NULL CHECK (scope IN ('everywhere', 'server')),
    accounts       BIGINT  NOT NULL CHECK (accounts >= 0),
    ledger_rows    BIGINT  NOT NULL CHECK (ledger_rows >= 0),
    chips_to_house BIGINT  NOT NULL CHECK (chips_to_house >= 0)
);
CREATE FUNCTION erasures_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the erasure record is append-only';
END;
$$;
CREATE TRIGGER erasures_no_change BEFORE UPDATE OR DELETE ON erasures
    FOR EACH ROW EXECUTE FUNCTION erasures_append_only();
