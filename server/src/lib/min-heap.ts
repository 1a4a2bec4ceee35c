/** A binary min-heap of numbers: push and pop in O(log n), the smallest read in O(1). */
export class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The smallest number, or undefined when empty. */
  peek(): number | undefined {
    return this.items[0];
  }

  push(value: number): void {
    const items = this.items;
    let index = items.push(value) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]! <= value) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = value;
  }

  /** Removes and returns the smallest number, or undefined when empty. */
  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]! < items[left]! ? right : left;
      if (items[child]! >= last) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }
}
