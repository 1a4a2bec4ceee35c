import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ja, jaMember } from '@enishi/contract';
import { people } from '../lib/users.js';
import {
  escapeRegExp,
  isHome,
  openFromHomeMenu,
  phonesPerTest,
  searchUsers,
  toast,
  uniqueTag,
  userCount,
  type Account,
} from '../lib/admin.js';

// Member and staff administration: the add forms, their checks, and the lists' search, edit and delete.
const { loggedIn } = phonesPerTest();

const errors = jaMember.members.errors;

function memberForm(page: Page) {
  return {
    name: page.getByRole('textbox', { name: jaMember.members.fields.name, exact: true }),
    kana: page.getByRole('textbox', { name: jaMember.members.fields.name_kana, exact: true }),
    id: page.getByRole('textbox', { name: jaMember.members.fields.id, exact: true }),
    pass: page.getByRole('textbox', { name: jaMember.members.fields.pass, exact: true }),
    rank: page.getByRole('combobox', { name: jaMember.members.fields.rank }),
    introducer: page.getByRole('textbox', { name: jaMember.members.fields.introducer, exact: true }),
    showPassword: page.getByRole('checkbox', { name: jaMember.members.showPassword }),
    add: page.getByRole('button', { name: jaMember.members.submitAdd, exact: true }),
    save: page.getByRole('button', { name: jaMember.members.submitEdit, exact: true }),
  };
}
type MemberFormLocators = ReturnType<typeof memberForm>;

/** A message under a field of the form (the same text may also be in a toast, outside the form). */
const fieldError = (page: Page, text: string) =>
  page.locator('form:not([role="search"])').getByText(text, { exact: true });

/** The three kinds of record and where their screens are. */
const kinds = {
  men: {
    homeItem: ja.menu.menAdmin,
    menuPath: '/men/menu',
    addItem: jaMember.members.menu.menAdd,
    addPath: '/men/add',
    listPath: '/menlist',
    editPath: '/men/edit',
    list: jaMember.members.listLabel(jaMember.members.kinds.men),
    deleted: jaMember.members.deleted.men,
  },
  women: {
    homeItem: ja.menu.womenAdmin,
    menuPath: '/women/menu',
    addItem: jaMember.members.menu.womenAdd,
    addPath: '/women/add',
    listPath: '/womenlist',
    editPath: '/women/edit',
    list: jaMember.members.listLabel(jaMember.members.kinds.women),
    deleted: jaMember.members.deleted.women,
  },
  staff: {
    homeItem: ja.menu.staffAdmin,
    menuPath: '/staff/menu',
    addItem: jaMember.members.menu.staffAdd,
    addPath: '/staff/add',
    listPath: '/staff/list',
    editPath: '/staff/edit',
    list: jaMember.members.listLabel(jaMember.members.kinds.staff),
    deleted: jaMember.members.deleted.staff,
  },
};
type Kind = (typeof kinds)[keyof typeof kinds];

/** From the home menu to the kind's add form, as staff would go. */
async function openAddForm(page: Page, kind: Kind): Promise<MemberFormLocators> {
  await openFromHomeMenu(page, kind.homeItem);
  await page.waitForURL(`**${kind.menuPath}`);
  await page.getByRole('link', { name: kind.addItem, exact: true }).click();
  await page.waitForURL(`**${kind.addPath}`);
  const form = memberForm(page);
  await form.name.waitFor();
  return form;
}

/** Submitting the empty form: the toast, and a message at each required field. */
async function submitEmpty(page: Page, form: MemberFormLocators): Promise<void> {
  await form.add.click();
  await toast(page, jaMember.members.invalid).waitFor();
  for (const message of [errors.nameRequired, errors.idRequired, errors.passRequired]) {
    await fieldError(page, message).waitFor();
  }
  for (const field of [form.name, form.id, form.pass]) {
    expect(await field.getAttribute('aria-invalid')).toBe('true');
  }
  expect(new URL(page.url()).pathname).not.toContain('list');
}

/** An ID somebody already has: the server refuses it, at the ID field and in a toast. */
async function submitTakenId(page: Page, form: MemberFormLocators, takenId: string): Promise<void> {
  await form.id.fill(takenId);
  await form.add.click();
  await toast(page, errors.idTaken).waitFor();
  await fieldError(page, errors.idTaken).waitFor();
  expect(await form.id.getAttribute('aria-invalid')).toBe('true');
  expect(new URL(page.url()).pathname).not.toContain('list');
}

/**
 * The list after an add: search (an empty search asks for a word), choose the new record, edit it, see the
 * new name, then delete it (いいえ keeps it, はい deletes it) and find nobody.
 */
async function findEditDelete(
  page: Page,
  kind: Kind,
  person: Account,
  tag: string,
  edit: {
    name: string;
    change?: (form: MemberFormLocators) => Promise<void>;
    /** Runs once the edit is saved, before the record is deleted. */
    saved?: () => Promise<void>;
  },
): Promise<void> {
  const list = page.getByRole('radiogroup', { name: kind.list });
  const editButton = page.getByRole('button', { name: jaMember.members.edit, exact: true });
  const deleteButton = page.getByRole('button', { name: jaMember.members.delete, exact: true });
  await list.waitFor();
  expect(await editButton.isDisabled()).toBe(true);
  expect(await deleteButton.isDisabled()).toBe(true);

  await searchUsers(page, '');
  await page.getByText(jaMember.members.searchPrompt, { exact: true }).waitFor();

  await searchUsers(page, tag);
  await page.waitForURL((url) => url.searchParams.get('q') === tag);
  await userCount(page, 1).waitFor();
  const before = list.getByRole('radio', { name: person.name, exact: true });
  await before.check();
  expect(await editButton.isDisabled()).toBe(false);
  await page.getByText(jaMember.members.selected(person.name), { exact: true }).waitFor();

  await editButton.click();
  await page.waitForURL(new RegExp(`${escapeRegExp(kind.editPath)}\\?id=\\d+$`));
  const form = memberForm(page);
  await expect.poll(() => form.name.inputValue()).toBe(person.name);
  expect(await form.id.inputValue()).toBe(person.id);
  // On edit the password is optional and starts empty.
  expect(await form.pass.inputValue()).toBe('');
  await form.name.fill(edit.name);
  await edit.change?.(form);
  await form.save.click();
  await toast(page, jaMember.members.updated(edit.name)).waitFor();
  await page.waitForURL(`**${kind.listPath}`);
  await edit.saved?.();

  await searchUsers(page, tag);
  await page.waitForURL((url) => url.searchParams.get('q') === tag);
  await userCount(page, 1).waitFor();
  const after = list.getByRole('radio', { name: edit.name, exact: true });
  await after.waitFor();
  expect(await before.count()).toBe(0);

  await after.check();
  await deleteButton.click();
  const dialog = page.getByRole('alertdialog', { name: jaMember.members.deleteConfirm });
  await dialog.getByRole('button', { name: ja.app.no, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await after.count()).toBe(1);
  await deleteButton.click();
  await dialog.getByRole('button', { name: ja.app.yes, exact: true }).click();
  await toast(page, kind.deleted).waitFor();
  await page.getByText(jaMember.members.notFound, { exact: true }).waitFor();
  expect(await after.count()).toBe(0);
  // Searching again from scratch finds nobody either.
  await page.reload();
  await userCount(page, 0).waitFor();
  await page.getByText(jaMember.members.notFound, { exact: true }).waitFor();
}

describe('member and staff administration', () => {
  test('staff (role 3) add a man, seeing each validation message, then find, edit and delete him', async () => {
    const page = await loggedIn('staff');
    const tag = uniqueTag();
    const man: Account = { id: `m-${tag}`, password: 'Man-add.1', name: `石川 健二${tag}` };
    const form = await openAddForm(page, kinds.men);

    await submitEmpty(page, form);
    // The rank was not chosen either.
    await fieldError(page, errors.rankRequired).waitFor();

    // The ID keeps letters, digits and hyphens only (full-width ones become half-width), 24 at most.
    await form.id.pressSequentially('Ｙａｍａ.da_太郎 -01');
    expect(await form.id.inputValue()).toBe('Yamada-01');
    await form.id.fill('x'.repeat(30));
    expect(await form.id.inputValue()).toBe('x'.repeat(24));

    // Name, ID and password, but no rank: refused before anything is sent.
    await form.name.fill(man.name);
    await form.id.fill(man.id);
    await form.pass.fill(man.password);
    expect(await form.pass.getAttribute('type')).toBe('password');
    await form.showPassword.check();
    expect(await form.pass.getAttribute('type')).toBe('text');
    await toast(page, jaMember.members.invalid).waitFor({ state: 'detached' });
    await form.add.click();
    await toast(page, jaMember.members.invalid).waitFor();
    await fieldError(page, errors.rankRequired).waitFor();
    expect(await fieldError(page, errors.nameRequired).count()).toBe(0);
    expect(await fieldError(page, errors.idRequired).count()).toBe(0);

    await form.rank.selectOption({ label: ja.ranks[2]! });
    await submitTakenId(page, form, people.man.id);

    await form.id.fill(man.id);
    await form.add.click();
    await toast(page, jaMember.members.added(man.name)).waitFor();
    await page.waitForURL(`**${kinds.men.listPath}`);

    await findEditDelete(page, kinds.men, man, tag, {
      name: `石川 健太${tag}`,
      change: async (edit) => {
        expect(await edit.rank.inputValue()).toBe('2');
        await edit.rank.selectOption({ label: ja.ranks[3]! });
      },
    });
  });

  test('staff add a woman (validation, a taken ID), then find, edit and delete her', async () => {
    const page = await loggedIn('staff');
    const tag = uniqueTag();
    const woman: Account = { id: `w-${tag}`, password: 'Woman-add.1', name: `森 美咲${tag}` };
    const form = await openAddForm(page, kinds.women);
    // Women have no rank.
    expect(await form.rank.count()).toBe(0);

    await submitEmpty(page, form);
    await form.name.fill(woman.name);
    await form.pass.fill(woman.password);
    await form.introducer.fill('佐藤花子');
    await submitTakenId(page, form, people.woman.id);

    await form.id.fill(woman.id);
    await form.add.click();
    await toast(page, jaMember.members.added(woman.name)).waitFor();
    await page.waitForURL(`**${kinds.women.listPath}`);

    await findEditDelete(page, kinds.women, woman, tag, {
      name: `森 美穂${tag}`,
      change: async (edit) => {
        expect(await edit.introducer.inputValue()).toBe('佐藤花子');
      },
    });
  });

  test('the owner (role 2) adds, finds, edits and deletes a staff member; the new password works', async () => {
    const page = await loggedIn('owner');
    const tag = uniqueTag();
    const staff: Account = { id: `s-${tag}`, password: 'Staff-add.1', name: `中村 彩${tag}` };
    const form = await openAddForm(page, kinds.staff);
    expect(await form.rank.count()).toBe(0);

    await submitEmpty(page, form);
    await form.name.fill(staff.name);
    await form.pass.fill(staff.password);
    await form.kana.fill('Nakamura'); // the reading is kana only, kept in hiragana (product.md §5.7)
    await form.add.click();
    await fieldError(page, errors.kanaInvalid).waitFor();
    await form.kana.fill('ナカムラ　アヤ');
    await submitTakenId(page, form, people.staff.id);
    await form.id.fill(staff.id);
    await form.add.click();
    await toast(page, jaMember.members.added(staff.name)).waitFor();
    await page.waitForURL(`**${kinds.staff.listPath}`);

    const renamed: Account = { ...staff, name: `中村 彩花${tag}`, password: 'Staff-new.2' };
    await findEditDelete(page, kinds.staff, staff, tag, {
      name: renamed.name,
      change: async (edit) => {
        expect(await edit.kana.inputValue()).toBe('なかむら あや');
        await edit.pass.fill(renamed.password);
      },
      saved: async () => {
        // The new staff member logs in with the password set on edit.
        const other = await loggedIn(renamed);
        await other.getByRole('heading', { name: jaMember.mypage.staffTitle }).waitFor();
      },
    });
  });

  test('staff (role 3) are sent home from staff administration', async () => {
    const page = await loggedIn('staff');
    await page.goto('/staff/menu');
    await page.waitForURL(isHome);
    await page.getByRole('navigation', { name: ja.home.menuLabel }).waitFor();
    await page.goto('/staff/add');
    await page.waitForURL(isHome);
  });
});
