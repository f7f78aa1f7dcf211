import type { Comment, ReactionUser } from '@share-arts/contract';
import { photoUrl } from '../users/users.presenter.js';

/** A comment as commentJson builds it. */
export interface CommentJson {
  _id: string;
  postId: string;
  userId: string;
  username: string;
  photoUrl: string | null;
  content: string;
  createdAt: string;
  updatedAt: string;
  edited: boolean;
  upvoteCount: number;
  downvoteCount: number;
  upvotedBy: ReactionUser[];
  downvotedBy: ReactionUser[];
  viewerVote: 'up' | 'down' | null;
}

export function toComment(json: CommentJson): Comment {
  return {
    _id: json._id,
    postId: json.postId,
    userId: json.userId,
    username: json.username,
    userPhoto: photoUrl(json.photoUrl),
    content: json.content,
    createdAt: json.createdAt,
    updatedAt: json.updatedAt,
    edited: json.edited,
    votes: {
      upvoteCount: json.upvoteCount,
      downvoteCount: json.downvoteCount,
      upvotedBy: json.upvotedBy,
      downvotedBy: json.downvotedBy,
    },
    viewerVote: json.viewerVote,
  };
}
