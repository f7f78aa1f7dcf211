CREATE INDEX "users_username_prefix_idx" ON "users" USING btree ((lower("username") collate "C"),"id");--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree ((lower("first_name" || ' ' || "last_name") collate "C"),"id");--> statement-breakpoint
CREATE INDEX "users_last_name_prefix_idx" ON "users" USING btree ((lower("last_name") collate "C"),"id");