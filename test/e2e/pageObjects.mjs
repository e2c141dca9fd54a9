// Page objects for the VS Code workbench in headless Chromium: what a user sees and does, by DOM selectors.

/** The activity bar entry of the extension. */
export class ActivityBar {
	constructor(page) {
		this.page = page;
	}
	async open(title) {
		const icon = this.page.locator(`.activitybar [aria-label^="${title}"]`).first();
		await icon.waitFor({ timeout: 60_000 });
		await icon.click();
	}
}

/** A tree view in the side bar. */
export class TreeView {
	constructor(page) {
		this.page = page;
	}
	row(text) {
		return this.page.locator('.sidebar .monaco-list-row', { hasText: text }).first();
	}
	async waitForRow(text, timeout = 60_000) {
		await this.row(text).waitFor({ timeout });
		return this.row(text);
	}
	async expand(text) {
		await this.toggleUntil(text, 'true');
	}
	async collapse(text) {
		await this.toggleUntil(text, 'false');
	}
	/** Clicks the row until it shows the state asked for: a click that lands while the tree redraws the row is lost. */
	async toggleUntil(text, expanded) {
		for (let attempt = 0; attempt < 4; attempt++) {
			const row = await this.waitForRow(text);
			const state = await row.getAttribute('aria-expanded');
			if (state === null || state === expanded) {
				// Let the children (or the rows below) settle before the next step reads them.
				await this.page.waitForTimeout(300);
				return;
			}
			await row.click();
			await this.page
				.locator(`.sidebar .monaco-list-row[aria-expanded="${expanded}"]`, { hasText: text })
				.first()
				.waitFor({ timeout: 3_000 })
				.catch(() => undefined);
		}
		throw new Error(
			`the row ${String(text)} did not become ${expanded === 'true' ? 'expanded' : 'collapsed'}`,
		);
	}
	async rowTexts() {
		return this.page.locator('.sidebar .monaco-list-row').allInnerTexts();
	}
	/** Hovers a row until its tooltip shows, retrying as the workbench settles. */
	async hover(text, expected) {
		const row = await this.waitForRow(text);
		for (let attempt = 0; attempt < 5; attempt++) {
			await this.page.mouse.move(700, 700);
			await this.page.waitForTimeout(200);
			await row.locator('.label-name').first().hover();
			try {
				const hover = this.page
					.locator('.monaco-hover, .workbench-hover', { hasText: expected })
					.first();
				await hover.waitFor({ state: 'visible', timeout: 5_000 });
				return hover;
			} catch (error) {
				if (attempt === 4) throw error;
			}
		}
		return undefined;
	}
	/** Clicks an inline action button (shown on hover) of the row whose label is exactly `label`. */
	async clickInlineAction(label, title) {
		const row = this.page
			.locator('.sidebar .monaco-list-row')
			.filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
			.first();
		await row.waitFor({ timeout: 60_000 });
		await row.hover();
		const button = row.locator(`.actions .action-label[aria-label^="${title}"]`).first();
		await button.waitFor({ timeout: 10_000 });
		await button.click();
	}
	async contextMenu(text, item) {
		const row = await this.waitForRow(text);
		await row.click({ button: 'right' });
		await clickMenuItem(this.page, item);
	}
}

/**
 * Clicks an item of the open menu. A click the instant the menu shows is ignored (the item highlights, the menu stays):
 * the pointer rests on it first, as a hand's does, and the menu closing says it ran.
 */
export async function clickMenuItem(page, item) {
	const entry = page.locator('.context-view .action-label', { hasText: item }).first();
	await entry.waitFor({ timeout: 10_000 });
	await entry.hover();
	await entry.click();
	await entry.waitFor({ state: 'detached', timeout: 10_000 });
}

/** The editor area, where previews and manifests open. */
export class EditorArea {
	constructor(page) {
		this.page = page;
	}
	async waitForTab(text, timeout = 30_000) {
		await this.page.locator('.tabs-container .tab', { hasText: text }).first().waitFor({ timeout });
	}
}

/** The command palette. */
export class CommandPalette {
	constructor(page) {
		this.page = page;
	}
	/** Opens the palette and runs a command. */
	async run(title) {
		await this.open('F1', `>${title}`, title);
		await this.page.keyboard.press('Enter');
	}

	/** Quick Open (Ctrl+P) with a query, until a row that matches `row` shows; returns that row. */
	async quickOpen(query, row) {
		return this.open('Control+P', query, row);
	}

	/**
	 * Opens the quick input with a key, types the query and waits for a matching row, which it returns. A quick input
	 * that closes as it opens (focus taken back by a webview or a reveal still settling) is opened again, as a user
	 * would press the key again, up to three times.
	 */
	async open(key, query, row) {
		const input = this.page.locator('.quick-input-widget input');
		const match = this.page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first();
		for (let attempt = 1; ; attempt++) {
			try {
				await this.page.keyboard.press(key);
				await input.waitFor({ timeout: 10_000 });
				await input.fill(query, { timeout: 5_000 });
				await match.waitFor({ timeout: 15_000 });
				return match;
			} catch (error) {
				if (attempt === 3) throw error;
			}
		}
	}

	/**
	 * Runs a command that opens a quick pick, types `query` into the pick (found by its placeholder, not the palette
	 * that ran the command) and waits for a row matching `row`, which it returns. A pick closes when focus leaves it: a
	 * webview still settling from the last step can take the focus back as the pick opens, so the whole is done again,
	 * as a user would, up to three times.
	 */
	async runAndPick(title, placeholder, query, row) {
		for (let attempt = 1; ; attempt++) {
			try {
				await this.run(title);
				const input = await this.waitForPick(placeholder, 10_000);
				await input.fill(query, { timeout: 5_000 });
				const match = this.page
					.locator('.quick-input-list .monaco-list-row', { hasText: row })
					.first();
				await match.waitFor({ timeout: 10_000 });
				return match;
			} catch (error) {
				if (attempt === 3) throw error;
				await this.page.keyboard.press('Escape');
			}
		}
	}

	/** Waits for the quick pick a command opened, by its placeholder (not the palette that ran the command). */
	async waitForPick(placeholder, timeout = 30_000) {
		const input = this.page.locator(`.quick-input-widget input[placeholder="${placeholder}"]`);
		await input.waitFor({ timeout });
		return input;
	}
}
