// The hand replayer: draws the step states the server computed (JSON in #replay-data) one
// at a time; previous/next buttons and the left/right arrow keys move between them. Only
// textContent is written: no markup from the data is ever parsed.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  let at = 0;
  const $ = (id) => document.getElementById(id);

  function draw() {
    const step = steps[at];
    const board = $("board");
    board.replaceChildren(...step.board.map((card) => {
      const span = document.createElement("span");
      span.className = "card";
      span.textContent = card;
      return span;
    }));
    $("pot").textContent = step.pot;
    $("street").textContent = step.street;
    $("action").textContent = step.text;
    $("step").textContent = at + 1;
    data.seats.forEach((seat) => {
      const s = seat.seat;
      const box = $("seat-" + s);
      box.classList.toggle("acting", step.to_act === s);
      box.classList.toggle("folded", step.folded[s]);
      box.classList.toggle("winner", (step.winners || []).includes(s));
      $("cards-" + s).textContent = step.cards[s] || "??";
      if (data.limited) $("behind-" + s).textContent = step.behind[s];
      $("front-" + s).textContent = step.front[s];
      const delta = step.deltas ? step.deltas[s] : null;
      $("delta-" + s).textContent = delta === null ? "" : (delta > 0 ? "+" : "") + delta;
    });
    document.querySelectorAll(".steps li").forEach((li, i) => {
      li.classList.toggle("current", i === at);
    });
    $("previous").disabled = at === 0;
    $("next").disabled = at === steps.length - 1;
  }

  function go(by) {
    at = Math.min(Math.max(at + by, 0), steps.length - 1);
    draw();
  }

  $("previous").addEventListener("click", () => go(-1));
  $("next").addEventListener("click", () => go(1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { go(1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { go(-1); event.preventDefault(); }
  });
  draw();
})();
