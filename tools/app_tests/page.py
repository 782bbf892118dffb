"""What a person does on the CarChain page, as selenium calls: fill a form, press a button, read what the page says.
Every wait has a bound; a timeout names what was awaited and what the page showed instead."""

from __future__ import annotations


from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 90  # seconds: a write unlocks a scrypt keystore on a loaded 2-core machine


class Page:
    def __init__(self, driver, url: str):
        self.driver = driver
        self.url = url

    # Finding and waiting

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def wait(self, condition, what: str, timeout: float = WAIT):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}; error: {self.text('#error')!r}, "
                                 f"dialog error: {self.text('#confirm-error')!r}, notice: {self.text('#notice')!r}") from None

    def visible(self, css: str) -> bool:
        elements = self.all(css)
        return bool(elements) and elements[0].is_displayed()

    def text(self, css: str) -> str:
        elements = self.all(css)
        return elements[0].text if elements and elements[0].is_displayed() else ""

    def wait_visible(self, css: str, timeout: float = WAIT):
        self.wait(lambda: self.visible(css), f"{css} to show", timeout)
        return self.find(css)

    def wait_text(self, css: str, fragment: str, timeout: float = WAIT) -> str:
        self.wait(lambda: fragment in self.text(css), f"{css} to say {fragment!r}", timeout)
        return self.text(css)

    # Acting

    def open(self, path: str = ""):
        self.driver.get(self.url + path)
        self.wait(lambda: not self.visible("#loading"), "the page to load")

    def go(self, screen: str):
        self.driver.execute_script(f"location.hash = '#/{screen}'")
        self.wait(lambda: self.driver.execute_script("return document.body.dataset.screen") == screen, f"screen {screen}")

    def type(self, css: str, text: str):
        field = self.wait_visible(css)
        field.clear()
        field.send_keys(text)

    def click(self, css: str):
        def clicked():
            elements = self.all(css)
            if not elements or not elements[0].is_displayed() or not elements[0].is_enabled():
                return False
            elements[0].click()
            return True
        self.wait(clicked, f"{css} to be clickable")

    # The app's flows

    def sign_up(self, email: str, password: str, passphrase: str | None = None, private_key: str | None = None,
                wallet: bool = False, name: str | None = None, wait_for: str = "#nav"):
        self.click("#tab-signup")
        if name:
            self.type("#form-signup input[name=displayName]", name)
        self.type("#form-signup input[name=email]", email)
        self.type("#form-signup input[name=password]", password)
        if wallet:
            self.click("#signup-use-wallet")
        elif private_key:
            self.click("#signup-choice-import")
            self.type("#form-signup input[name=privateKey]", private_key)
        if not wallet:
            self.type("#form-signup input[name=walletPassphrase]", passphrase)
        self.click("#form-signup button[type=submit]")
        self.wait(lambda: self.visible(wait_for), f"{email} to be signed up ({wait_for})")

    def sign_in(self, email: str, password: str):
        self.click("#tab-signin")
        self.type("#form-signin input[name=email]", email)
        self.type("#form-signin input[name=password]", password)
        self.click("#form-signin button[type=submit]")
        self.wait(lambda: self.visible("#nav"), f"{email} to be signed in")

    def sign_out(self):
        self.click("#sign-out")
        self.wait(lambda: self.visible("#screen-signin"), "the sign-in screen")

    def confirm(self, passphrase: str | None):
        """Fills the confirmation dialog's passphrase (unless a wallet signs) and confirms."""
        self.wait_visible("#confirm")
        if passphrase is not None:
            self.type("#confirm-passphrase", passphrase)
        self.click("#confirm-ok")

    def wait_done(self, fragment: str):
        """Waits for the dialog to close and the notice to say `fragment`."""
        self.wait(lambda: not self.visible("#confirm") and fragment in self.text("#notice"), f"notice {fragment!r}")

    def error(self) -> str:
        """The error shown (in the dialog while it is open)."""
        self.wait(lambda: self.text("#confirm-error") or self.text("#error"), "an error message")
        return self.text("#confirm-error") or self.text("#error")

    def cancel(self):
        self.click("#confirm-cancel")
        self.wait(lambda: not self.visible("#confirm"), "the dialog to close")

    def car_status(self, plate: str) -> str | None:
        items = self.all(f"#car-list li[data-plate='{plate}']")
        if not items:
            return None
        classes = items[0].get_attribute("class").split()
        return next((c for c in classes if c in ("available", "rented", "mine", "off-chain")), None)

    def select_car(self, plate: str):
        # An open sheet covers the bottom of a phone's screen: close it first, as a person would.
        if self.visible("#car-sheet"):
            self.click("#sheet-close")
            self.wait(lambda: not self.visible("#car-sheet"), "the sheet to close")

        # The list is redrawn on every block: a button found a moment ago may be gone; find it again then.
        def clicked():
            buttons = self.all(f"#car-list li[data-plate='{plate}'] button")
            if not buttons:
                return False
            buttons[0].click()
            return True
        self.wait(clicked, f"car {plate} in the list")
        self.wait_text("#sheet-plate", plate)
