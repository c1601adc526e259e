-- Games, their seats and their append-only action log; results, timers, message ids and settings.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER,
    thread_id     INTEGER,
    host_id       INTEGER,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')),
    players       INTEGER NOT NULL CHECK (players BETWEEN 1 AND 4),
    side          TEXT    NOT NULL,
    solo          INTEGER NOT NULL DEFAULT 0,
    turn_timer    INTEGER,            -- seconds a player has for a turn; NULL = no timer
    seed          INTEGER,            -- set when the game starts
    version       INTEGER NOT NULL DEFAULT 0,  -- grows with every change a button could be stale against
    moves         INTEGER NOT NULL DEFAULT 0,  -- number of actions in the log
    snapshot      TEXT,               -- cache of the engine's to_json(); the log is the truth
    broken_reason TEXT,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL
);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,        -- seating order, 0 = host
    name     TEXT    NOT NULL,        -- the player's name inside the engine
    user_id  INTEGER,                 -- Discord user; NULL for a seat the AI holds from the start
    ai       INTEGER NOT NULL DEFAULT 0,  -- 1 while the AI plays this seat
    expired  INTEGER NOT NULL DEFAULT 0,  -- turns in a row that ran out of time
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, name)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,      -- 1, 2, … in the order applied
    player     TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    source     TEXT    NOT NULL DEFAULT 'player' CHECK (source IN ('player', 'timeout', 'ai')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE events (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL,         -- the action that caused it
    idx     INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    player  TEXT    NOT NULL,
    data    TEXT    NOT NULL,         -- JSON
    reveals INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq, idx),
    FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    user_id     INTEGER,
    ai          INTEGER NOT NULL DEFAULT 0,
    resigned    INTEGER NOT NULL DEFAULT 0,
    rank        INTEGER NOT NULL,     -- 1 = winner
    total       INTEGER NOT NULL,
    in_play     INTEGER NOT NULL,
    tracks      INTEGER NOT NULL,
    quality     INTEGER NOT NULL,
    animals     INTEGER NOT NULL,
    leads       INTEGER NOT NULL,
    adjacency   INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id);

CREATE TABLE timers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,         -- e.g. reminder_half, reminder_late, deadline
    due_at  REAL    NOT NULL,
    version INTEGER NOT NULL,         -- the game version the timer was set for
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX timers_by_due ON timers (due_at);

CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,      -- e.g. lobby, prompt
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE user_settings (
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (user_id, key)
);
