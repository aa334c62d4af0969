/**
 * The script of every built-in page, run under the page's CSP nonce (no inline
 * handlers): a submitted form's button shows that a request is under way
 * (disabled, `aria-busy`, its `data-pending` label), so nobody submits twice
 * while a slow check (a password hash, a mail server) runs. A page restored
 * from the back/forward cache gets its buttons back.
 *
 * Forms a script of their own handles (the passkey button, which calls
 * `preventDefault`) are left alone: that script shows its own pending state.
 * @module
 */

const source = `(function () {
  "use strict"
  function label(button) {
    return button.querySelector("[data-label]") || button
  }
  function setPending(button) {
    var pending = button.getAttribute("data-pending")
    button.disabled = true
    button.setAttribute("aria-busy", "true")
    if (pending) {
      var text = label(button)
      button.setAttribute("data-idle", text.textContent)
      text.textContent = pending
    }
  }
  function reset(button) {
    var idle = button.getAttribute("data-idle")
    button.disabled = false
    button.removeAttribute("aria-busy")
    if (idle !== null) {
      label(button).textContent = idle
      button.removeAttribute("data-idle")
    }
  }
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return
    var form = event.target
    var button = event.submitter || form.querySelector("button[type=submit]")
    if (button && button.tagName === "BUTTON") setPending(button)
  })
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return
    var busy = document.querySelectorAll("button[aria-busy=true]")
    for (var i = 0; i < busy.length; i++) reset(busy[i])
  })
})()`

/** The script's source, for a `<script nonce>` of the page's own. */
export const pendingScript: string = source
