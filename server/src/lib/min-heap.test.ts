import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinHeap } from './min-heap.js';

describe('MinHeap', () => {
  it('gives back what was pushed, smallest first, across pushes and pops in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null })), (steps) => {
        // A number is a push; null is a pop, checked against a sorted copy.
        const heap = new MinHeap();
        const model: number[] = [];
        for (const step of steps) {
          if (step === null) {
            model.sort((a, b) => a - b);
            expect(heap.pop()).toBe(model.shift());
          } else {
            heap.push(step);
            model.push(step);
          }
          expect(heap.size).toBe(model.length);
          expect(heap.peek()).toBe(model.length ? Math.min(...model) : undefined);
        }
      }),
    );
  });
});
