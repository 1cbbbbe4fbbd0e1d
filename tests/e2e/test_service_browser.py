"""The service's pages in a real browser: Debian's headless Chromium, driven by its
chromedriver through Selenium, against the real ``pokerbots serve`` on 127.0.0.1.

It reads what a person sees (rendered text, not the HTML source): the standings rows in the
order of the API's standings, the chart with a line per bot, the quarantined bot with its
reason, the rejected ones, a name and a label that are markup shown as text (and no alert),
then a bot's page with its versions, its smoke paragraph and its transcript. `.ci/run`
installs the browser (apt-get install chromium chromium-driver).
"""

from __future__ import annotations

import pytest

from service_site import (
    EVIL_LABEL,
    EVIL_NAME,
    Served,
    browser_missing,
    chromium,
    make_submissions,
)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(browser_missing() is not None,
                                 reason=browser_missing() or "")]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("browser")
    submissions = make_submissions(work / "submissions", good=("call", "eq", "random"))
    with Served(submissions, work / "data", "--hands", "300", "--every", "1h") as served:
        served.settled(["call", "eq", "random", "broken", "nothing", "notexec", EVIL_NAME])
        served.tournament_done(1)
        driver = chromium(work / "profile")
        try:
            yield served, driver, work
        finally:
            driver.quit()
        assert served.stop() == 0


def rows(driver, table_class: str) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    table = driver.find_element(By.CSS_SELECTOR, f"table.{table_class}")
    return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]


def test_the_home_page_shows_standings_chart_and_quarantine(site):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    served, driver, work = site
    driver.get(served.url + "/")
    assert driver.title == "Standings · pokerbots"
    expected = [line["name"] for line in served.api("/api/standings")["bots"]]
    standings = rows(driver, "standings")
    assert [row[1] for row in standings] == expected
    assert [row[0] for row in standings] == ["1", "2", "3"]
    versions = {b["name"]: b["version"] for b in served.api("/api/bots")}
    assert [row[2] for row in standings] == [versions[name] for name in expected]
    assert EVIL_LABEL in [row[2] for row in standings]  # the label, as text
    per_hand = [float(row[3].split()[0]) for row in standings]  # the figure, then its ±
    assert per_hand == sorted(per_hand, reverse=True)
    bars = driver.find_elements(By.CSS_SELECTOR, "table.standings svg.bar")
    assert len(bars) == 3 and all(bar.size["width"] > 100 for bar in bars)

    chart = driver.find_element(By.CSS_SELECTOR, "svg.chart")
    assert chart.is_displayed() and chart.size["width"] >= 600
    series = chart.find_elements(By.CSS_SELECTOR, "g.series")
    assert sorted(s.get_attribute("data-bot") for s in series) == sorted(expected)
    assert len(chart.find_elements(By.TAG_NAME, "circle")) == 3  # one tournament so far

    quarantine = {row[0]: row for row in rows(driver, "quarantine")}
    assert sorted(quarantine) == sorted(["broken", "nothing", "notexec", EVIL_NAME])
    assert quarantine["broken"][2] == "quarantined"
    assert quarantine["broken"][3] == "kuhn 2p seat 0 seed 1: expected 'READY'"
    assert quarantine["nothing"][2] == "rejected"
    assert quarantine["nothing"][3].startswith("no entry point")
    assert "not executable" in quarantine["notexec"][3]
    assert EVIL_NAME in driver.find_element(By.TAG_NAME, "body").text
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.accept()  # nothing ran: no alert to accept
    assert "Next tournament:" in driver.find_element(By.CSS_SELECTOR, "p.schedule").text
    assert driver.save_screenshot(str(work / "home.png"))


def test_a_bot_page_shows_its_versions_paragraph_and_transcript(site):
    from selenium.webdriver.common.by import By

    served, driver, work = site
    driver.get(served.url + "/")
    driver.find_element(By.LINK_TEXT, "broken").click()
    assert driver.current_url == served.url + "/bots/broken"
    body = driver.find_element(By.TAG_NAME, "body").text
    assert "Status: quarantined" in body and "Version that plays: none" in body
    assert "about to break the rules" not in body  # its stderr is the team's to read
    driver.add_cookie({"name": "pokerbots_token", "value": served.token("broken")})
    driver.refresh()
    report = driver.find_element(By.CSS_SELECTOR, "pre.report").text
    assert "The bot replied: '<script>alert(1)</script>'" in report
    assert "about to break the rules" in report  # its stderr, under the paragraph
    transcript = driver.find_element(By.CSS_SELECTOR, "pre.transcript").text
    assert transcript.splitlines()[0] == "init_round"
    driver.find_element(By.LINK_TEXT, "seat0.in").click()
    assert driver.find_element(By.TAG_NAME, "body").text.startswith("init_round")
    driver.delete_cookie("pokerbots_token")

    driver.get(served.url + "/bots/eq")
    body = driver.find_element(By.TAG_NAME, "body").text
    assert "Status: admitted" in body and f"Version that plays: {EVIL_LABEL}" in body
    results = rows(driver, "results")
    assert len(results) == 1 and results[0][0] == "#1"
    driver.find_element(By.LINK_TEXT, "#1").click()
    assert "Cross-table" in driver.find_element(By.TAG_NAME, "body").text
    assert len(rows(driver, "matches")) == 3
