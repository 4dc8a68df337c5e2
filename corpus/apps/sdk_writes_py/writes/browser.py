"""Browser automation: acting on the page next to looking at it."""

from playwright.async_api import Page
from selenium import webdriver


class Computer:
    def __init__(self, page: Page) -> None:
        self._page = page

    @property
    def page(self) -> Page:
        return self._page

    async def act(self, x: int, y: int, text: str) -> None:
        await self.page.mouse.click(x, y)  # W browser.playwright workflow
        await self.page.mouse.dblclick(x, y)  # W browser.playwright workflow
        await self.page.keyboard.type(text)  # W browser.playwright workflow
        await self.page.keyboard.press("Enter")  # W browser.playwright workflow
        await self.page.mouse.down()  # W browser.playwright workflow
        await self.page.goto("https://example.com")  # W browser.playwright workflow
        await self.page.get_by_role("button").click()  # W browser.playwright workflow

    async def look(self, x: int, y: int) -> None:
        await self.page.screenshot(full_page=False)  # R
        await self.page.mouse.move(x, y)  # R
        await self.page.mouse.wheel(0, y)  # R
        await self.page.wait_for_timeout(500)  # R
        await self.page.evaluate("window.scrollBy(0, 100)")  # R
        await self.page.set_viewport_size({"width": 800, "height": 600})  # R


def selenium_session(url: str, text: str) -> None:
    driver = webdriver.Chrome()
    driver.get(url)  # W browser.selenium workflow
    driver.find_element("id", "q").send_keys(text)  # W browser.selenium workflow
    driver.find_element("id", "go").click()  # W browser.selenium workflow
    driver.find_element("id", "q").get_attribute("value")  # R
    driver.get_screenshot_as_png()  # R
