-- A player's away periods (`/games away`): from when, until when (moved to the moment of `/games back` on an early
-- return). While one runs, the player's turn deadlines and reminders in every game are moved later by the time away;
-- the rows of the last 365 days count against the yearly allowance of away days.

CREATE TABLE aways (
    user_id  INTEGER NOT NULL,
    began_at REAL    NOT NULL,
    ends_at  REAL    NOT NULL CHECK (ends_at >= began_at),
    PRIMARY KEY (user_id, began_at)
) WITHOUT ROWID;
CREATE INDEX aways_by_end ON aways (ends_at);
