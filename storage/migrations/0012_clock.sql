-- Time banks (`/kokeshi new clock:`): the time left in each seat's bank in a game played on a bank clock, and when
-- the turn it runs for began (NULL between that seat's turns). And the opponents' choice after a seat's third expired
-- turn in a row: when it was asked, until when it waits, and its answer ('wait', 'ai', 'end'; 'none' when nobody
-- answered in time, 'back' when the player came back first; NULL while it is open).

CREATE TABLE clocks (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    bank          REAL    NOT NULL CHECK (bank >= 0),
    turn_began_at REAL,
    PRIMARY KEY (game_id, name)
) WITHOUT ROWID;

CREATE TABLE seat_choices (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    asked_at    REAL    NOT NULL,
    due_at      REAL    NOT NULL CHECK (due_at >= asked_at),
    answer      TEXT CHECK (answer IN ('wait', 'ai', 'end', 'none', 'back')),
    answered_by INTEGER,
    PRIMARY KEY (game_id, name)
) WITHOUT ROWID;
CREATE INDEX seat_choices_by_due ON seat_choices (due_at);
