// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { ChangeEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { useImagePicker, type PickedImages } from './use-image-picker';

/** What a file input holds after the user picked `files`. */
function pickedFiles(files: File[]): ChangeEvent<HTMLInputElement> {
  const input = document.createElement('input');
  input.type = 'file';
  Object.defineProperty(input, 'files', { value: files });
  return { currentTarget: input, target: input } as unknown as ChangeEvent<HTMLInputElement>;
}

const file = (name: string, type: string) => new File([new Uint8Array([1, 2, 3])], name, { type });

async function pick(room: number, files: File[]): Promise<PickedImages[]> {
  const results: PickedImages[] = [];
  const { result } = renderHook(() =>
    useImagePicker({ types: ['image/jpeg', 'image/png'], room, onPicked: (picked) => results.push(picked) }),
  );
  await act(() => result.current.pick(pickedFiles(files)));
  expect(result.current.reading).toBe(0);
  return results;
}

describe('useImagePicker', () => {
  it('reads the pictures of the allowed types as data URLs, in the order picked', async () => {
    const [picked] = await pick(4, [file('a.jpg', 'image/jpeg'), file('b.png', 'image/png')]);
    expect(picked?.images.map((image) => image.split(',')[0])).toEqual([
      'data:image/jpeg;base64',
      'data:image/png;base64',
    ]);
    expect(picked?.skipped).toBe(false);
  });

  it('leaves out other types, and says when usable pictures did not fit', async () => {
    const [wrongType] = await pick(4, [file('a.gif', 'image/gif'), file('b.png', 'image/png')]);
    expect(wrongType).toMatchObject({ skipped: true, overflow: false });
    expect(wrongType?.images).toHaveLength(1);

    const [tooMany] = await pick(1, [file('a.jpg', 'image/jpeg'), file('b.jpg', 'image/jpeg')]);
    expect(tooMany).toMatchObject({ skipped: true, overflow: true });
    expect(tooMany?.images).toHaveLength(1);
  });
});
