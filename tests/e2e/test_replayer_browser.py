"""The hand replayer in a real browser: Debian's headless Chromium driven by Selenium against
the real ``pokerbots serve`` on 127.0.0.1 (a table of three playing no-limit Hold'em).

It reads what a person sees: the step's action line, the pot, each seat's chips and cards,
and checks that the next and previous buttons and the arrow keys move through the hand the
server computed (the JSON in the page), that a spectator sees ``??`` where no showdown showed
the cards while the organiser sees them, and it takes a picture of the organiser's view of a
hand: into the test's own folder, or into ``docs/replayer.png`` (the docs' picture) when
``POKERBOTS_UPDATE_PICTURES=1`` asks for it, so that a test run leaves the checkout as it was.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from service_site import BOTS, ROOT, Served, browser_missing, chromium

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(browser_missing() is not None,
                                 reason=browser_missing() or "")]

#: The docs' picture, rewritten only when asked for.
DOCS_PICTURE = ROOT / "docs" / "replayer.png"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("replayer")
    submissions = work / "submissions"
    for name, bot in (("caller", "call_bot.py"), ("rand", "random_bot.py"),
                      ("rando", "random_bot.py")):
        (submissions / name).mkdir(parents=True)
        (submissions / name / "bot.py").write_text((BOTS / bot).read_text())
    with Served(submissions, work / "data", "--game", "holdem-nl", "--players", "3",
                "--hands", "40", "--every", "1h", "--no-sandbox") as served:
        served.settled(["caller", "rand", "rando"])
        served.tournament_done(1)
        driver = chromium(work / "profile", width=1000, height=1100)
        try:
            yield served, driver
        finally:
            driver.quit()
        assert served.stop() == 0


def drawn(driver) -> dict:
    from selenium.webdriver.common.by import By

    seats = driver.find_elements(By.CSS_SELECTOR, ".table-felt .seat")
    return {"step": driver.find_element(By.ID, "step").text,
            "action": driver.find_element(By.ID, "action").text,
            "pot": driver.find_element(By.ID, "pot").text,
            "cards": [s.find_element(By.CLASS_NAME, "seat-cards").text for s in seats],
            "behind": [s.find_element(By.CLASS_NAME, "seat-stack").text for s in seats]}


def steps_of(served: Served, path: str, token: str | None = None) -> list[dict]:
    page = served.get(path, token).text
    return json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))[
        "steps"]


def test_next_previous_and_the_arrow_keys_move_through_the_hand(site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    served, driver = site
    records = [json.loads(line) for line in
               served.get("/matches/1/hands.jsonl").text.splitlines()]
    hand = next(r for r in records if len(r["actions"]) >= 4 and "-" in r["showdown"])
    path = f"/matches/1/hands/{hand['hand']}"
    steps = steps_of(served, path)
    driver.get(served.url + "/matches/1")
    driver.find_element(By.LINK_TEXT, "the hand history").click()
    driver.find_element(By.LINK_TEXT, f"Replay hand {hand['hand']}").click()
    assert driver.current_url == served.url + path
    first = drawn(driver)
    assert first["step"] == "1" and first["action"] == steps[0]["text"]
    assert first["pot"] == str(steps[0]["pot"])
    assert driver.find_element(By.ID, "previous").get_attribute("disabled")
    driver.find_element(By.ID, "next").click()
    second = drawn(driver)
    assert second["step"] == "2" and second["action"] == steps[1]["text"] != first["action"]
    assert second["pot"] == str(steps[1]["pot"])
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    third = drawn(driver)
    assert third["step"] == "3" and third["action"] == steps[2]["text"]
    body.send_keys(Keys.ARROW_LEFT)
    assert drawn(driver) == second
    driver.find_element(By.ID, "previous").click()
    assert drawn(driver) == first
    for _ in range(len(steps) + 2):  # past the end: it stays on the result
        body.send_keys(Keys.ARROW_RIGHT)
    last = drawn(driver)
    assert last["step"] == str(len(steps)) and last["action"].startswith("Result:")
    assert last["behind"] == [f"behind {v}" for v in hand["stacks_end"]]
    for seat, shown in enumerate(hand["showdown"]):  # a spectator sees shown cards only
        assert last["cards"][seat] == (shown if shown != "-" else "??")
    assert driver.find_element(By.ID, "next").get_attribute("disabled")


def test_the_organiser_sees_every_card_and_the_picture_is_saved(site):
    from selenium.webdriver.common.by import By

    served, driver = site
    organiser = served.token("boss", organiser=True)
    records = [json.loads(line) for line in
               served.get("/matches/1/hands.jsonl", organiser).text.splitlines()]
    hand = max(records, key=lambda r: (len(r["board"]), len(r["actions"])))
    driver.get(served.url + "/")
    driver.add_cookie({"name": "pokerbots_token", "value": organiser})
    driver.get(served.url + f"/matches/1/hands/{hand['hand']}")
    assert drawn(driver)["cards"] == hand["cards"]
    for _ in range(len(hand["actions"]) - 1):
        driver.find_element(By.ID, "next").click()
    board = [card.text for card in driver.find_elements(By.CSS_SELECTOR, "#board .card")]
    assert board and board == hand["board"][:len(board)]
    picture = (DOCS_PICTURE if os.environ.get("POKERBOTS_UPDATE_PICTURES") == "1"
               else served.output.with_name("replayer.png"))
    driver.save_screenshot(str(picture))
    assert picture.stat().st_size > 10_000
    driver.delete_cookie("pokerbots_token")
