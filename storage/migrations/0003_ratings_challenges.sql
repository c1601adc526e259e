-- Ratings per scope, their history, daily and weekly challenge attempts, and the daily results posted.

ALTER TABLE games ADD COLUMN challenge TEXT;  -- e.g. daily:2026-11-22 or weekly:2026-W47; NULL for other games

CREATE TABLE ratings (
    scope      TEXT    NOT NULL,  -- global, or guild:<id>
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope, user_id)
);
CREATE INDEX ratings_by_scope ON ratings (scope, mu, sigma);

CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
);

CREATE TABLE challenge_attempts (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('daily', 'weekly')),
    key         TEXT    NOT NULL,  -- the UTC date (daily) or ISO week (weekly)
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,
    rated       INTEGER NOT NULL,  -- 1 for a user's first attempt at this key only
    started_at  REAL    NOT NULL,
    score       INTEGER,           -- set when the game ends
    won         INTEGER,
    finished_at REAL
);
CREATE INDEX attempts_by_key ON challenge_attempts (kind, key, rated, score);
CREATE INDEX attempts_by_user ON challenge_attempts (user_id, kind, key);

CREATE TABLE daily_posts (
    guild_id   INTEGER NOT NULL,
    day        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
