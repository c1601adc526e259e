-- What the game's thread shows: how far the turn records and the live prompt have been posted, and the turn the
-- prompt and its timers belong to. A game whose posts are behind its log is posted again (after a crash or a
-- failed post).

CREATE TABLE turn_posts (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    recorded_seq  INTEGER NOT NULL DEFAULT 0,   -- every turn ended by an action up to this seq has its record
    shown_version INTEGER NOT NULL DEFAULT -1,  -- the game version the live prompt shows
    turn_key      TEXT    NOT NULL DEFAULT '',  -- the turn the live prompt belongs to (player, round, turns)
    turn_version  INTEGER NOT NULL DEFAULT -1   -- the version at which that turn's prompt was first posted
);

-- Games stored before this table existed are shown as they are; their running turn keeps its timers.
INSERT INTO turn_posts (game_id, recorded_seq, shown_version, turn_key, turn_version)
SELECT g.id, g.moves, g.version, '',
       COALESCE((SELECT t.version FROM timers t WHERE t.game_id = g.id AND t.kind = 'deadline'), g.version)
FROM games g
WHERE g.seed_text IS NOT NULL OR g.seed IS NOT NULL;
