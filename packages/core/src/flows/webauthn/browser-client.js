/*
 * Tessera's passkey client for the built-in sign-in page. Not a module: it is
 * inlined into the page after @simplewebauthn/browser's UMD bundle by
 * scripts/embed-webauthn-client.mjs (see client-script.generated.ts), and uses
 * that bundle's global `SimpleWebAuthnBrowser`.
 *
 * Each element with `data-webauthn-provider` is a passkey control: a form of
 * its own, or a button that joins another form (the e-mail provider's, whose
 * field it shares). Submitting through it asks `webauthn-options` (with the
 * form's fields, so an unknown e-mail registers and anything else
 * authenticates), runs the ceremony and posts the result to
 * `callback/<provider>`. With `data-conditional-ui` it also arms passkey
 * autofill on the form's e-mail field. The strings it shows come from the
 * control's `data-message-*` attributes (the page's language); the button
 * shows its `data-pending` label while a ceremony runs.
 *
 * A control with `data-webauthn-action="two-factor"` (on the two-factor page)
 * answers the pending sign-in's second step instead: it asks for the
 * `two-factor` options (the pending user's passkeys) and posts the assertion to
 * `callback/two-factor`. Its form is a plain GET of the page for browsers
 * without the script, so it carries no CSRF token: the page's code form has it.
 */
;(function () {
  "use strict"
  var lib = window.SimpleWebAuthnBrowser
  if (!lib) return

  var fallback = {
    unsupported: "This browser does not support passkeys.",
    cancelled: "The passkey request was cancelled or timed out.",
    registered: "This device already has a passkey for this account.",
    failed: "Passkey sign-in failed. Please try again.",
    domain: "Passkeys don't work at {host}: open this page at localhost instead.",
  }

  function PasskeyError(message) {
    this.message = message
  }

  /**
   * One passkey control: the element that names the provider, the form it
   * submits, its button and the box its errors go to.
   */
  function Control(element) {
    var isForm = element.tagName === "FORM"
    this.element = element
    this.form = isForm ? element : element.form
    this.button = isForm ? element.querySelector("button[type=submit]") : element
    this.provider = element.getAttribute("data-webauthn-provider")
    this.secondFactor = element.getAttribute("data-webauthn-action") === "two-factor"
    this.errorBox =
      document.querySelector('[data-webauthn-error="' + this.provider + '"]') ||
      (isForm ? element.querySelector("[data-webauthn-error]") : null)
  }

  Control.prototype.message = function (name) {
    return this.element.getAttribute("data-message-" + name) || fallback[name]
  }

  function value(form, name) {
    var element = form.elements.namedItem(name)
    return element && typeof element.value === "string" ? element.value : ""
  }

  function endpoint(control, path, id) {
    return (
      control.element.getAttribute("data-auth-url") +
      "/" +
      path +
      "/" +
      encodeURIComponent(id || control.provider)
    )
  }

  /** The CSRF token: the control's form's, or, for one without (two-factor), the page's. */
  function csrfTokenOf(control) {
    var own = value(control.form, "csrfToken")
    if (own) return own
    var field = document.querySelector("input[name=csrfToken]")
    return field ? field.value : ""
  }

  function showError(control, text) {
    var box = control.errorBox
    if (!box) return
    box.textContent = text || ""
    box.hidden = !text
  }

  /** The button while a ceremony runs: disabled, busy, with its pending label. */
  function setPending(control, pending) {
    var button = control.button
    if (!button) return
    button.disabled = pending
    if (pending) {
      button.setAttribute("aria-busy", "true")
      var label = button.getAttribute("data-pending")
      if (label) {
        button.setAttribute("data-idle", button.textContent)
        button.textContent = label
      }
    } else {
      button.removeAttribute("aria-busy")
      var idle = button.getAttribute("data-idle")
      if (idle !== null) button.textContent = idle
      button.removeAttribute("data-idle")
    }
  }

  function readJson(response) {
    return response.json().catch(function () {
      return null
    })
  }

  async function fetchOptions(control, params) {
    var response = await fetch(endpoint(control, "webauthn-options") + "?" + params.toString(), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
    var body = await readJson(response)
    if (!response.ok || !body || !body.options)
      throw new PasskeyError((body && body.message) || control.message("failed"))
    return body
  }

  /** Posts the ceremony's result; the server answers with where to go next (`X-Auth-Return-Redirect`). */
  async function finish(control, action, result) {
    var body = new URLSearchParams({
      action: action,
      data: JSON.stringify(result),
      csrfToken: csrfTokenOf(control),
    })
    // The second step goes to `callback/two-factor`, naming the provider; its pending sign-in knows where to go.
    if (control.secondFactor) body.set("provider", control.provider)
    else body.set("callbackUrl", value(control.form, "callbackUrl"))
    var path = control.secondFactor
      ? endpoint(control, "callback", "two-factor")
      : endpoint(control, "callback")
    var response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Auth-Return-Redirect": "1",
      },
      body: body,
    })
    var answer = await readJson(response)
    if (answer && typeof answer.url === "string") {
      window.location.assign(answer.url)
      return
    }
    throw new PasskeyError((answer && answer.message) || control.message("failed"))
  }

  function messageOf(control, error) {
    if (error instanceof PasskeyError) return error.message
    if (error && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      return control.message("registered")
    // WebAuthn refuses IP addresses and hosts the rp id does not cover (SecurityError).
    if (error && (error.code === "ERROR_INVALID_DOMAIN" || error.name === "SecurityError"))
      return control.message("domain").replace("{host}", window.location.hostname)
    if (error && (error.name === "NotAllowedError" || error.name === "AbortError"))
      return control.message("cancelled")
    return control.message("failed")
  }

  /** The form's visible fields (the e-mail address) tell the server who is asking. */
  function fieldsOf(form) {
    var params = new URLSearchParams()
    for (var i = 0; i < form.elements.length; i++) {
      var element = form.elements[i]
      if (
        element.tagName !== "INPUT" ||
        !element.name ||
        element.type === "hidden" ||
        !element.value
      )
        continue
      params.set(element.name, element.value)
    }
    return params
  }

  async function ceremony(control) {
    if (control.secondFactor) {
      var asked = await fetchOptions(control, new URLSearchParams({ action: "two-factor" }))
      var assertion = await lib.startAuthentication({ optionsJSON: asked.options })
      return finish(control, "two-factor", assertion)
    }
    var options = await fetchOptions(control, fieldsOf(control.form))
    var result =
      options.action === "register"
        ? await lib.startRegistration({ optionsJSON: options.options })
        : await lib.startAuthentication({ optionsJSON: options.options })
    await finish(control, options.action, result)
  }

  var rearmTimer

  /**
   * Passkey autofill: a pending conditional request the browser answers when the
   * user picks a passkey in the e-mail field's suggestions. Its challenge expires,
   * so it is renewed shortly before (the options' `timeout` is the challenge's life).
   */
  async function armAutofill(control) {
    clearTimeout(rearmTimer)
    try {
      if (!(await lib.browserSupportsWebAuthnAutofill())) return
      var options = await fetchOptions(control, new URLSearchParams({ action: "authenticate" }))
      var life = Number(options.options.timeout) || 60000
      rearmTimer = setTimeout(
        function () {
          armAutofill(control)
        },
        Math.max(life - 15000, 10000),
      )
      var result = await lib.startAuthentication({
        optionsJSON: options.options,
        useBrowserAutofill: true,
      })
      clearTimeout(rearmTimer)
      await finish(control, "authenticate", result)
    } catch (error) {
      // Aborted by a button ceremony or a renewal: nothing to tell the user.
      if (error && (error.name === "AbortError" || error.code === "ERROR_CEREMONY_ABORTED")) return
      showError(control, messageOf(control, error))
    }
  }

  /** True when this submission is the control's: its own form, or its button in a shared one. */
  function isOwnSubmit(control, event) {
    if (control.element.tagName === "FORM") return true
    // Browsers without `submitter` (old Safari): only the control's button can mean passkeys.
    return event.submitter ? event.submitter === control.button : false
  }

  function setup(element) {
    var control = new Control(element)
    if (!control.form) return
    var conditional = element.hasAttribute("data-conditional-ui")
    control.form.addEventListener("submit", async function (event) {
      if (!isOwnSubmit(control, event)) return
      event.preventDefault()
      if (!lib.browserSupportsWebAuthn()) return showError(control, control.message("unsupported"))
      showError(control, "")
      setPending(control, true)
      try {
        // On success the page is leaving: the button stays busy until it has.
        await ceremony(control)
      } catch (error) {
        setPending(control, false)
        showError(control, messageOf(control, error))
        if (conditional) armAutofill(control)
      }
    })
    if (conditional) armAutofill(control)
  }

  function start() {
    var controls = document.querySelectorAll("[data-webauthn-provider]")
    for (var i = 0; i < controls.length; i++) setup(controls[i])
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
})()
