-- "All users, newest first" (GET /api/users) read its page in this order with no index to follow: every
-- request sorted the whole users table (26 ms of PostgreSQL's CPU a page at 100,000 users, 68 pages a second).
CREATE INDEX IF NOT EXISTS "users_newest_idx" ON "users" USING btree ("created_at" DESC, "id" DESC);
