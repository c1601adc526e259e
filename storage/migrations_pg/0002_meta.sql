-- Facts about the installation itself, e.g. the hash of the slash commands last synced with Discord.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
