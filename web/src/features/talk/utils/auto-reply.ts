/**
 * The desk's auto-reply rule with its holiday table: loaded only by a member's talk with the staff, so that
 * staff and other talks do not download the table (product.md §4.9).
 */
export { autoReplyFor } from '@enishi/contract';
