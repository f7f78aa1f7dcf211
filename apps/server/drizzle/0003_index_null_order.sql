DROP INDEX "bookmarks_user_created_idx";--> statement-breakpoint
DROP INDEX "comment_votes_comment_kind_idx";--> statement-breakpoint
DROP INDEX "follows_followee_idx";--> statement-breakpoint
DROP INDEX "follows_follower_created_idx";--> statement-breakpoint
DROP INDEX "media_owner_idx";--> statement-breakpoint
DROP INDEX "post_reactions_post_kind_idx";--> statement-breakpoint
DROP INDEX "post_reactions_user_kind_idx";--> statement-breakpoint
DROP INDEX "posts_created_idx";--> statement-breakpoint
DROP INDEX "posts_author_created_idx";--> statement-breakpoint
DROP INDEX "posts_trending_idx";--> statement-breakpoint
DROP INDEX "users_popular_idx";--> statement-breakpoint
CREATE INDEX "bookmarks_user_created_idx" ON "bookmarks" USING btree ("user_id","created_at" DESC NULLS FIRST,"post_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "comment_votes_comment_kind_idx" ON "comment_votes" USING btree ("comment_id","kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "follows_followee_idx" ON "follows" USING btree ("followee_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "follows_follower_created_idx" ON "follows" USING btree ("follower_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "media_owner_idx" ON "media" USING btree ("owner_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "post_reactions_post_kind_idx" ON "post_reactions" USING btree ("post_id","kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "post_reactions_user_kind_idx" ON "post_reactions" USING btree ("user_id","kind","created_at" DESC NULLS FIRST,"post_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "posts_created_idx" ON "posts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "posts_author_created_idx" ON "posts" USING btree ("author_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "posts_trending_idx" ON "posts" USING btree ("like_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_popular_idx" ON "users" USING btree ("follower_count" DESC NULLS FIRST,"id" DESC NULLS FIRST);