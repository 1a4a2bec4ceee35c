import { IMAGE_DATA_URL_MAX, MESSAGE_IMAGES_MAX } from '@enishi/contract';
import type { RawData } from 'ws';

/** Frames from this size on carry pictures (a text frame without them is a few KiB). */
export const LARGE_FRAME_BYTES = 1024 * 1024;

/**
 * The fewest pictures a frame of `bytes` can carry: all but its first megabyte (the text and the rest) is
 * data URLs of at most IMAGE_DATA_URL_MAX characters each. It is read only once that many are allowed, so a
 * member with a few pictures left does not have frames of five read, parsed and refused one after another.
 */
export const leastPicturesIn = (bytes: number): number =>
  Math.min(MESSAGE_IMAGES_MAX, Math.max(1, Math.ceil((bytes - LARGE_FRAME_BYTES) / IMAGE_DATA_URL_MAX)));

export const byteLength = (data: RawData): number =>
  Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength;
