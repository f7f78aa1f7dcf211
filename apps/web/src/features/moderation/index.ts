// The moderation feature's public face: who may moderate (the side menu's link). The queue itself is the
// lazy /moderation page.
export { canModerate, roleOf } from './api/role';
