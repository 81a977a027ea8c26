// The rig's page: everything it shows arrives by server-sent events (/events); every
// input is a small JSON POST (/input) of the hardware event a real knob or reader makes.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const LIT = [200, 232, 255];          // OLED pixels: lit / dark
const DETENT_DEGREES = 18;            // one click of the encoder per 18 degrees of drag
const HOLD_MS = 1500;                 // a long press, as the rig's default config
const FLICK_DEGREES_PER_S = 540;      // faster than this at release is a flick (a spin)
const CLAIM_MS = 120;                 // a drag's turns wait this long: a flick claims them
const COLOURS = { red: "#d62828", green: "#2a9d3a", blue: "#1d4ed8", yellow: "#f2c200",
                  black: "#111111", brown: "#7a4a1e", orange: "#e86a10", purple: "#7b2cbf",
                  pink: "#e0559b", white: "#f4f4f4" };

const $ = (selector) => document.querySelector(selector);
const rig = { cards: [], pieces: [], frames: 0, buzzes: 0, sent: 0, acked: 0, voices: [], heard: "" };
window.cbrig = rig;

// ---------------------------------------------------------------- what the page says
// One line under the heading: "reconnecting...", an input being sent again. Never
// silent: a page that lost the rig says so until it has it back.
function say(text) {
  const el = $("#link-state");
  if (!el) return;
  el.textContent = text;
  el.hidden = !text;
}

// ---------------------------------------------------------------- inputs, in order
// A 408 (the request missed the rig's deadline), 429 or 503 means the input was not
// taken: it is sent again after a pause, and the page says so. A network error after
// sending may or may not have been taken: the page says so rather than guess.
const RETRY_STATUSES = [408, 429, 503];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function send(input) {
  for (let attempt = 0; ; attempt++) {
    let response = null;
    try {
      response = await fetch("/input", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(input),
      });
    } catch (error) {
      say("An input may be lost: the rig did not answer. Check the screen.");
      rig.lost = (rig.lost || 0) + 1;
      return;
    }
    if (!RETRY_STATUSES.includes(response.status) || attempt >= 20) {
      if (!response.ok) say(`An input was refused (${response.status}).`);
      else if (attempt) say("");
      return;
    }
    rig.resent = (rig.resent || 0) + 1;
    say(`The rig was busy (${response.status}): sending the input again...`);
    await wait(Math.min(5000, 250 * 2 ** attempt));
  }
}
let chain = Promise.resolve();
function post(input) {
  // one at a time: the next input leaves only after the rig has queued this one
  const events = input.type === "tap" ? 2 : 1;   // a tap is the card on, then off
  rig.sent += events;
  chain = chain.then(() => send(input)).catch(() => {}).then(() => { rig.acked += events; });
  return chain;
}
rig.post = post;

// ---------------------------------------------------------------- the OLED
function drawFrame(b64) {
  const canvas = $("#oled");
  if (!canvas) return;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(128, 64);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      const on = (bytes[y * 16 + (x >> 3)] >> (7 - (x & 7))) & 1;
      const i = (y * 128 + x) * 4;
      image.data[i] = on ? LIT[0] : 0;
      image.data[i + 1] = on ? LIT[1] : 0;
      image.data[i + 2] = on ? LIT[2] : 0;
      image.data[i + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  rig.frames += 1;
  rig.frame = b64;
}

// ---------------------------------------------------------------- the knobs
function angleOf(el, event) {
  const box = el.getBoundingClientRect();
  const dx = event.clientX - (box.left + box.width / 2);
  const dy = event.clientY - (box.top + box.height / 2);
  return Math.atan2(dy, dx) * 180 / Math.PI;
}

function setupKnob(el) {
  const knob = el.dataset.knob;
  const cap = el.querySelector(".cap");
  let position = 0;
  let drag = null;
  let holdTimer = null;

  function turn(steps) {
    position += steps;
    cap.style.transform = `rotate(${position * DETENT_DEGREES}deg)`;
    post({ type: "turn", knob, steps });
  }
  el.turn = turn;

  // A drag's detents are posted as turns CLAIM_MS late (as the knob's gesture classifier
  // holds them, hardware/gesture.py): a drag that ends in a flick is one spin, never
  // turns first (a turn is "ok" on a result screen, and "not a turn" on a spin prompt).
  function owe(state, step) {
    position += step;
    cap.style.transform = `rotate(${position * DETENT_DEGREES}deg)`;
    state.owed += step;
    if (!state.timer) state.timer = setTimeout(() => pay(state), CLAIM_MS);
  }
  function pay(state) {
    clearTimeout(state.timer);
    state.timer = null;
    if (state.owed) post({ type: "turn", knob, steps: state.owed });
    state.owed = 0;
  }

  el.addEventListener("pointerdown", (event) => {
    try {
      el.setPointerCapture(event.pointerId);
    } catch (error) {
      // a pointer the browser does not track (a synthetic one): the drag works uncaptured
    }
    el.focus();
    drag = { angle: angleOf(el, event), pending: 0, total: 0, detents: 0, held: false,
             owed: 0, timer: null, samples: [[event.timeStamp, 0]] };
    holdTimer = setTimeout(() => {
      if (drag && drag.detents === 0) {
        drag.held = true;
        el.classList.add("held");
        post({ type: "hold", knob });
      }
    }, HOLD_MS);
  });
  el.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const angle = angleOf(el, event);
    let delta = angle - drag.angle;
    if (delta > 180) delta -= 360;
    if (delta < -180) delta += 360;
    drag.angle = angle;
    drag.pending += delta;
    drag.total += delta;
    drag.samples.push([event.timeStamp, drag.total]);
    while (Math.abs(drag.pending) >= DETENT_DEGREES) {
      const step = Math.sign(drag.pending);
      drag.pending -= step * DETENT_DEGREES;
      drag.detents += 1;
      owe(drag, step);
    }
  });
  el.addEventListener("pointerup", (event) => {
    clearTimeout(holdTimer);
    el.classList.remove("held");
    const done = drag;
    drag = null;
    if (!done || done.held) return;
    const recent = done.samples.filter(([t]) => event.timeStamp - t <= 120);
    const [t0, a0] = recent[0] || done.samples[0];
    const seconds = Math.max(0.016, (event.timeStamp - t0) / 1000);
    const speed = Math.abs(done.total - a0) / seconds;
    if (done.detents >= 2 && speed >= FLICK_DEGREES_PER_S) {
      clearTimeout(done.timer);  // the turns it is made of are the flick's
      post({ type: "spin", knob, strength: Math.min(1, speed / (FLICK_DEGREES_PER_S * 4)) });
      return;
    }
    pay(done);
    if (done.detents === 0) {
      post({ type: "press", knob });
    }
  });
  el.addEventListener("pointercancel", () => {
    clearTimeout(holdTimer);
    if (drag) pay(drag);
    drag = null;
  });
  el.addEventListener("wheel", (event) => {
    event.preventDefault();
    if (event.deltaY) turn(event.deltaY > 0 ? 1 : -1);
  }, { passive: false });
}

const KEYS = {
  a: ["turn", "hi", -1], d: ["turn", "hi", 1], w: ["spin", "hi"], s: ["press", "hi"],
  S: ["hold", "hi"], j: ["turn", "lo", -1], l: ["turn", "lo", 1], i: ["spin", "lo"],
  k: ["press", "lo"], K: ["hold", "lo"],
};
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const known = KEYS[event.key];
  if (known) {
    const [type, knob, steps] = known;
    if (type === "turn") $(`#knob-${knob}`).turn(steps);
    else if (type === "spin") post({ type, knob, strength: 0.7 });
    else post({ type, knob });
    event.preventDefault();
  } else if (event.key === "n") {
    const can = rig.cards.filter((card) => card.can);
    if (can.length) post({ type: "tap", card: can[Math.floor(Math.random() * can.length)].id });
  }
}

// ---------------------------------------------------------------- the card reader
function setCards(cards) {
  rig.cards = cards;
  const tray = $("#tray");
  if (!tray) return;
  tray.replaceChildren(...cards.map((card) => {
    const button = document.createElement("button");
    button.className = "card" + (card.out ? " spent" : "") + (card.can ? " can" : "");
    button.dataset.card = card.id;
    const band = card.band ? `${card.band.toUpperCase()} band` : "";
    const copies = card.copies > 1 ? ` x${card.copies}` : "";
    button.innerHTML = `<span class="band"></span><b></b><span class="text"></span>`;
    button.querySelector(".band").textContent = band + copies;
    button.querySelector("b").textContent = card.title;
    button.querySelector(".text").textContent = card.text;
    button.title = card.out ? "out of the pile: drawn since the last reshuffle"
      : card.can ? "tap this card on the reader" : "no card is asked now";
    button.addEventListener("click", () => post({ type: "tap", card: card.id }));
    return button;
  }));
  const hint = $("#tray-hint");
  if (hint) hint.textContent = trayHint(cards);
}

function trayHint(cards) {
  // says only what is true now: whether a card is asked, and what a dimmed card means
  if (!cards.length) return "The tray fills when a game starts.";
  const dimmed = cards.some((card) => card.out) ? " Dimmed cards are out of the pile." : "";
  return cards.some((card) => card.can)
    ? "Tap a card on the reader: click it." + dimmed
    : "No card is asked now: the screen says when to tap one." + dimmed;
}

// ---------------------------------------------------------------- the live board
// On a narrow screen the whole board makes its space labels ("R13", "T7") 3-4 px tall:
// there the board is drawn so that they are LABEL_PX tall, in a box that scrolls under
// a finger (no pinching), with a button for the whole board at a glance.
const LABEL_PX = 12;
const NARROW_PX = 620;
const SPACE_LABEL = /^[A-Z]{1,2}[0-9]{1,2}$/;
let wholeBoard = false;

function labelUnits(svg) {
  // the font size of the board's space labels, in the drawing's own units
  for (const text of svg.querySelectorAll("text")) {
    if (SPACE_LABEL.test(text.textContent.trim())) {
      const size = parseFloat(getComputedStyle(text).fontSize);
      if (size > 0) return size;
    }
  }
  return 0;
}

function fitBoard() {
  const holder = $("#board");
  const svg = holder && holder.querySelector("svg");
  const toggle = $("#board-zoom");
  if (!svg) { if (toggle) toggle.hidden = true; return; }
  const units = labelUnits(svg);
  const box = svg.viewBox && svg.viewBox.baseVal;
  const narrow = window.innerWidth <= NARROW_PX;
  const readable = units > 0 && box && box.width > 0
    ? Math.ceil(LABEL_PX / units * box.width) : 0;
  const zoom = narrow && !wholeBoard && readable > holder.clientWidth;
  holder.classList.toggle("zoomed", zoom);
  svg.style.width = zoom ? `${readable}px` : "";
  if (toggle) {
    toggle.hidden = !(narrow && readable > holder.clientWidth);
    toggle.textContent = wholeBoard ? "Readable labels" : "Whole board";
  }
  rig.labelPx = units && box ? units * svg.getBoundingClientRect().width / box.width : 0;
}

function setupBoardZoom() {
  const toggle = $("#board-zoom");
  if (toggle) toggle.addEventListener("click", () => { wholeBoard = !wholeBoard; fitBoard(); });
  window.addEventListener("resize", fitBoard);
}

function setBoard(svgText) {
  const holder = $("#board");
  if (!svgText) {
    holder.innerHTML = '<p class="hint">The board appears when a game starts.</p>';
    fitBoard();
    return;
  }
  holder.innerHTML = svgText;
  const svg = holder.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const layer = document.createElementNS(SVG, "g");
  layer.id = "pieces";
  svg.appendChild(layer);
  drawPieces();
  fitBoard();
}

function setPieces(pieces) {
  rig.pieces = pieces;
  drawPieces();
  const list = $("#where");
  list.replaceChildren(...pieces.map((piece) => {
    const item = document.createElement("li");
    item.textContent = piece.says;
    item.dataset.piece = piece.id;
    return item;
  }));
}

function drawPieces() {
  const layer = document.querySelector("#board svg #pieces");
  if (!layer) return;
  layer.replaceChildren(...rig.pieces.map((piece) => {
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", `piece ${piece.kind}`);
    g.id = `piece-${piece.id.replace(":", "-")}`;
    g.dataset.piece = piece.id;
    g.dataset.location = piece.location;
    g.setAttribute("transform", `translate(${piece.x} ${piece.y})`);
    const r = piece.size / 2;
    const fill = COLOURS[piece.colour] || "#888";
    const shape = document.createElementNS(SVG, piece.shape === "square" ? "rect" : "circle");
    if (shape.tagName === "circle") {
      shape.setAttribute("r", r);
    } else {
      shape.setAttribute("x", -r); shape.setAttribute("y", -r);
      shape.setAttribute("width", 2 * r); shape.setAttribute("height", 2 * r);
      shape.setAttribute("rx", r / 3);
    }
    shape.setAttribute("fill", fill);
    shape.setAttribute("stroke", "#fff");
    shape.setAttribute("stroke-width", 0.6);
    const text = document.createElementNS(SVG, "text");
    text.textContent = piece.mark;
    text.setAttribute("fill", piece.colour === "yellow" ? "#000" : "#fff");
    text.setAttribute("font-size", Math.max(2.5, r));
    const title = document.createElementNS(SVG, "title");
    title.textContent = piece.says;
    g.append(shape, text, title);
    return g;
  }));
}

// ---------------------------------------------------------------- the buzzer
let audio = null;
function wakeAudio() {
  if (!window.AudioContext) return;
  if (!audio) audio = new AudioContext();
  else if (audio.state === "suspended") audio.resume();
}
function buzz(pattern) {
  rig.buzzes += 1;
  const bezel = $("#bezel");
  const total = (pattern.on_time + pattern.off_time) * pattern.count * 1000;
  if (bezel) {
    bezel.classList.add("buzz");
    setTimeout(() => bezel.classList.remove("buzz"), total);
  }
  if (!audio || !pattern.buzzer) return;
  let t = audio.currentTime + 0.01;
  for (let n = 0; n < pattern.count; n++) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "square";
    tone.frequency.value = 2300;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start(t);
    tone.stop(t + pattern.on_time);
    t += pattern.on_time + pattern.off_time;
  }
}

// ---------------------------------------------------------------- wiring
// ----------------------------------------------------------------- the voice
// Each "voice" event names a WAV the rig rendered, with its priority (rig/web/voice.py):
// a clip that must be heard (a card, a move, an alert, the winner) plays to its end and
// what follows waits; a routine one (a prompt) yields to any newer event, is dropped when
// it waited longer than `lag` seconds, and a "stale" event (the table acted) drops it.
let voiceNow = null;  // the clip playing: {audio, must, text}
const voiceQueue = [];  // clips waiting: {url, text, must, lag, at}

function muted() {
  const box = $("#mute");
  return box ? box.checked : false;
}

function dropVoices(everything) {
  for (let i = voiceQueue.length - 1; i >= 0; i--) {
    if (everything || !voiceQueue[i].must) voiceQueue.splice(i, 1);
  }
  if (voiceNow && (everything || !voiceNow.must)) {
    voiceNow.audio.pause();
    voiceNow = null;
  }
}

function playNextVoice() {
  while (!voiceNow && voiceQueue.length) {
    const next = voiceQueue.shift();
    if (!next.must && Date.now() - next.at > next.lag * 1000) continue;  // stale
    const audio = new Audio(next.url);
    const now = { audio, must: next.must, text: next.text };
    voiceNow = now;
    const done = () => {
      if (voiceNow !== now) return;
      voiceNow = null;
      playNextVoice();
    };
    audio.addEventListener("playing", () => { rig.heard = next.text; });
    audio.addEventListener("ended", () => {
      rig.wholes = [...(rig.wholes || []), next.text];  // heard to the end (tests read it)
      done();
    });
    audio.addEventListener("error", done);
    audio.play().catch(done);  // before any click the browser may refuse: silent
  }
}

// Each event repeats the last few voice messages, numbered: act on the ones not seen yet
// (the hub keeps only a topic's newest event for a page busy elsewhere); a page that
// connects late acts on the newest only.
let voiceSeen = null;

function voiceEvents(data) {
  const events = data.events || [];
  if (voiceSeen === null && events.length) voiceSeen = events[events.length - 1].seq - 1;
  for (const message of events) {
    if (message.seq > voiceSeen) { voiceSeen = message.seq; speak(message); }
  }
}

function speak(message) {
  if (message.stale) { dropVoices(message.stale === "all"); playNextVoice(); return; }
  rig.voices.push(message.text);
  dropVoices(false);  // a newer moment: a routine prompt playing or waiting is stale
  if (muted()) return;
  voiceQueue.push({ url: message.url, text: message.text, must: !!message.must,
                    lag: message.lag || 3, at: Date.now() });
  playNextVoice();
}

function setupMute() {
  const box = $("#mute");
  if (!box) return;
  box.checked = localStorage.getItem("cbrig-mute") === "yes";
  box.addEventListener("change", () => {
    localStorage.setItem("cbrig-mute", box.checked ? "yes" : "no");
    if (box.checked) dropVoices(true);
  });
}

// The rig's word on the voice: why it cannot play, shown beside the mute switch.
function voiceState(state) {
  const el = $("#voice-state");
  if (!el) return;
  el.hidden = state.ok;
  el.textContent = state.ok ? "" : `The voice cannot play: ${state.why}.`;
}

// ---------------------------------------------------------------- the stream
// The page keeps its own stream: on any error (a 503, a dropped connection, the rig
// restarting) it closes the EventSource, which Chromium never reopens after an HTTP
// error, says "reconnecting...", and tries again with a growing pause (1 s to 15 s,
// jittered). It first asks /hello: 403 means the join code is needed again (the owner
// renewed it), anything else that is not 204 means wait and ask again. The stream sends
// the current screen and board at once, so a reconnected page is whole at once.
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];
let stream = null;
let failures = 0;
let retryTimer = null;
rig.reconnects = 0;

function connected(yes) {
  document.body.dataset.connected = yes ? "yes" : "no";
  if (yes) { failures = 0; say(""); }
}

function reconnectLater() {
  if (stream) { stream.close(); stream = null; }
  connected(false);
  if (retryTimer) return;
  const base = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
  const delay = base * (0.75 + Math.random() * 0.5);
  failures += 1;
  say(`Lost the rig: reconnecting... (try ${failures}, next in ${Math.round(delay / 1000)} s)`);
  retryTimer = setTimeout(async () => {
    retryTimer = null;
    let status = 0;
    try {
      status = (await fetch("/hello", { cache: "no-store" })).status;
    } catch (error) {
      status = 0;  // no answer at all: the rig is restarting, or the network is down
    }
    if (status === 403 && document.body.classList.contains("readonly")) {
      say("The join code changed: type the new one.");
      window.location.href = "/join";
      return;
    }
    if (status !== 204) { reconnectLater(); return; }
    rig.reconnects += 1;
    connect();
  }, delay);
}

function connect() {
  const events = new EventSource("/events");
  stream = events;
  events.addEventListener("frame", (e) => drawFrame(e.data));
  events.addEventListener("boardsvg", (e) => setBoard(e.data));
  events.addEventListener("pieces", (e) => setPieces(JSON.parse(e.data)));
  events.addEventListener("cards", (e) => setCards(JSON.parse(e.data)));
  events.addEventListener("screen", (e) => { const el = $("#screen"); if (el) el.textContent = e.data; });
  events.addEventListener("buzz", (e) => buzz(JSON.parse(e.data)));
  events.addEventListener("voice", (e) => voiceEvents(JSON.parse(e.data)));
  events.addEventListener("voicestate", (e) => voiceState(JSON.parse(e.data)));
  events.addEventListener("open", () => connected(true));
  events.addEventListener("error", () => { if (stream === events) reconnectLater(); });
}

document.querySelectorAll(".knob").forEach(setupKnob);
setupMute();
setupBoardZoom();
if (document.body.classList.contains("desk")) {
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", wakeAudio);
  document.addEventListener("keydown", wakeAudio);
}
connect();
