-- PostgreSQL mirror of migrations/0003_ratings_challenges.sql: ratings, their history, challenge attempts and the
-- daily results posted.

ALTER TABLE games ADD COLUMN challenge TEXT;

CREATE TABLE ratings (
    scope      TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, user_id)
);
CREATE INDEX ratings_by_scope ON ratings (scope, mu, sigma);

CREATE TABLE rating_changes (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        TEXT   NOT NULL,
    user_id      BIGINT NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
);

CREATE TABLE challenge_attempts (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('daily', 'weekly')),
    key         TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    guild_id    BIGINT,
    rated       INTEGER NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    score       INTEGER,
    won         INTEGER,
    finished_at DOUBLE PRECISION
);
CREATE INDEX attempts_by_key ON challenge_attempts (kind, key, rated, score);
CREATE INDEX attempts_by_user ON challenge_attempts (user_id, kind, key);

CREATE TABLE daily_posts (
    guild_id   BIGINT NOT NULL,
    day        TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day)
);
