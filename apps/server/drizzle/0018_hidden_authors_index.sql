-- Every read of posts asks whether the author's works are hidden from the reader (shown to signed-in people
-- only, or suspended). Without an index the planner scanned all users for it on each list: 10-14 ms a page
-- at 50,000 users (bench:explain), growing with them. The hidden few fit in a small partial index.
CREATE INDEX "users_hidden_idx" ON "users" USING btree ("id") WHERE "users"."works_signed_in_only" or "users"."suspended_until" is not null;
