import { chromium, Page } from 'playwright';
import puppeteer from 'puppeteer';

export class Computer {
  private _page: Page | null = null;

  get page(): Page {
    return this._page!;
  }

  async act(x: number, y: number, text: string) {
    await this.page.mouse.click(x, y); // W browser.ts.playwright workflow
    await this.page.mouse.dblclick(x, y); // W browser.ts.playwright workflow
    await this.page.keyboard.type(text); // W browser.ts.playwright workflow
    await this.page.keyboard.press('Enter'); // W browser.ts.playwright workflow
    await this.page.mouse.up(); // W browser.ts.playwright workflow
  }

  async look(x: number, y: number) {
    await this.page.screenshot({ fullPage: false }); // R
    await this.page.mouse.move(x, y); // R
    await this.page.mouse.wheel(0, y); // R
    await this.page.waitForTimeout(500); // R
    await this.page.evaluate(() => 1); // R
    await this.page.setViewportSize({ width: 800, height: 600 }); // R
  }
}

export async function launch(url: string, text: string) {
  const browser = await chromium.launch();
  const page = await browser.newPage();
  await page.goto(url); // W browser.ts.playwright workflow
  await page.title(); // R
  const puppet = await puppeteer.launch();
  const other = await puppet.newPage();
  await other.type('#q', text); // W browser.ts.puppeteer workflow
  await other.content(); // R
}
