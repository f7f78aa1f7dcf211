-- Trigram matching for user search (prefix and fuzzy); PGlite loads the same extension in-process.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
