-- PostgreSQL mirror of migrations/0005: a finished game's log packed into one compressed value, events derived by
-- replay, leaderboard totals.

-- What undo needs to know of an action without a replay: 1 = it ended a turn, 2 = it revealed something.
ALTER TABLE actions ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;
UPDATE actions SET flags =
    (CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.game_id = actions.game_id AND e.seq = actions.seq
                       AND e.kind IN ('turn_ended', 'setup_done', 'game_over')) THEN 1 ELSE 0 END)
  + (CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.game_id = actions.game_id AND e.seq = actions.seq
                       AND e.reveals = 1) THEN 2 ELSE 0 END);
DROP TABLE events;

-- A finished game's whole action log, zlib-compressed JSON; its action rows are then deleted.
ALTER TABLE games ADD COLUMN log BYTEA;

CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX results_by_user_time ON results (user_id, finished_at, game_id);
DROP INDEX results_by_user;
-- Covering indexes: a deep page is skipped in the index alone.
CREATE INDEX ratings_by_display ON ratings (scope, (mu - 3 * sigma) DESC, user_id, mu, sigma, games);
CREATE INDEX attempts_by_guild ON challenge_attempts (kind, key, guild_id, rated, score);

-- Per scope (global, guild:<id>), per kind of game (solo or not; challenges excluded): a player's totals.
CREATE TABLE player_totals (
    scope    TEXT    NOT NULL,
    solo     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    best     INTEGER NOT NULL,
    first_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, solo, user_id)
);
CREATE INDEX totals_by_wins ON player_totals (scope, solo, wins DESC, games DESC, first_at, user_id);
CREATE INDEX totals_by_best ON player_totals (scope, solo, best DESC, first_at, user_id, games);

INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at)
SELECT 'global', g.solo, r.user_id, COUNT(*), SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END), MAX(r.total), MIN(r.finished_at)
FROM results r JOIN games g ON g.id = r.game_id
WHERE r.user_id IS NOT NULL AND g.challenge IS NULL
GROUP BY g.solo, r.user_id;
INSERT INTO player_totals (scope, solo, user_id, games, wins, best, first_at)
SELECT 'guild:' || g.guild_id, g.solo, r.user_id, COUNT(*), SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END), MAX(r.total), MIN(r.finished_at)
FROM results r JOIN games g ON g.id = r.game_id
WHERE r.user_id IS NOT NULL AND g.challenge IS NULL AND g.guild_id IS NOT NULL
GROUP BY g.guild_id, g.solo, r.user_id;

-- How many players each board has (rating, multi, solo per scope), kept with the rows for page footers.
CREATE TABLE board_counts (
    scope   TEXT    NOT NULL,
    board   TEXT    NOT NULL CHECK (board IN ('rating', 'multi', 'solo')),
    players INTEGER NOT NULL,
    PRIMARY KEY (scope, board)
);
INSERT INTO board_counts (scope, board, players)
SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'multi' END, COUNT(*) FROM player_totals GROUP BY scope, solo;
INSERT INTO board_counts (scope, board, players) SELECT scope, 'rating', COUNT(*) FROM ratings GROUP BY scope;

-- How often a player advanced each kokeshi by choice, counted when a game ends (for the favourite in stats).
CREATE TABLE kokeshi_counts (
    scope   TEXT    NOT NULL,
    user_id BIGINT  NOT NULL,
    kokeshi TEXT    NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (scope, user_id, kokeshi)
);

INSERT INTO kokeshi_counts (scope, user_id, kokeshi, n)
SELECT 'global', s.user_id, substr(a.action, 9), COUNT(*)
FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.name = a.player JOIN games g ON g.id = a.game_id
WHERE s.user_id IS NOT NULL AND a.action LIKE 'advance:%' AND a.source = 'player' AND g.status = 'finished'
GROUP BY s.user_id, substr(a.action, 9);
INSERT INTO kokeshi_counts (scope, user_id, kokeshi, n)
SELECT 'guild:' || g.guild_id, s.user_id, substr(a.action, 9), COUNT(*)
FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.name = a.player JOIN games g ON g.id = a.game_id
WHERE s.user_id IS NOT NULL AND a.action LIKE 'advance:%' AND a.source = 'player' AND g.status = 'finished'
  AND g.guild_id IS NOT NULL
GROUP BY g.guild_id, s.user_id, substr(a.action, 9);

