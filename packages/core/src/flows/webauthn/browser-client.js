/*
 * Tessera's passkey client for the built-in sign-in page. Not a module: it is
 * inlined into the page after @simplewebauthn/browser's UMD bundle by
 * scripts/embed-webauthn-client.mjs (see client-script.generated.ts), and uses
 * that bundle's global `SimpleWebAuthnBrowser`.
 *
 * Each `<form data-webauthn-provider>` on the page becomes a passkey form:
 * submitting it asks `webauthn-options` (with the form's fields, so an unknown
 * e-mail registers and anything else authenticates), runs the ceremony and
 * posts the result to `callback/<provider>`. A form with
 * `data-conditional-ui` also arms passkey autofill on the e-mail field.
 */
;(function () {
  "use strict"
  var lib = window.SimpleWebAuthnBrowser
  if (!lib) return

  var messages = {
    unsupported: "This browser does not support passkeys.",
    cancelled: "The passkey request was cancelled or timed out.",
    registered: "This device already has a passkey for this account.",
    failed: "Passkey sign-in failed. Please try again.",
  }

  function PasskeyError(message) {
    this.message = message
  }

  function value(form, name) {
    var element = form.elements.namedItem(name)
    return element && typeof element.value === "string" ? element.value : ""
  }

  function endpoint(form, path) {
    return (
      form.getAttribute("data-auth-url") +
      "/" +
      path +
      "/" +
      encodeURIComponent(form.getAttribute("data-webauthn-provider"))
    )
  }

  function showError(form, text) {
    var box = form.querySelector("[data-webauthn-error]")
    if (!box) return
    box.textContent = text || ""
    box.hidden = !text
  }

  function readJson(response) {
    return response.json().catch(function () {
      return null
    })
  }

  async function fetchOptions(form, params) {
    var response = await fetch(endpoint(form, "webauthn-options") + "?" + params.toString(), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
    var body = await readJson(response)
    if (!response.ok || !body || !body.options)
      throw new PasskeyError((body && body.message) || messages.failed)
    return body
  }

  /** Posts the ceremony's result; the server answers with where to go next (`X-Auth-Return-Redirect`). */
  async function finish(form, action, result) {
    var body = new URLSearchParams({
      action: action,
      data: JSON.stringify(result),
      csrfToken: value(form, "csrfToken"),
      callbackUrl: value(form, "callbackUrl"),
    })
    var response = await fetch(endpoint(form, "callback"), {
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
    throw new PasskeyError((answer && answer.message) || messages.failed)
  }

  function messageOf(error) {
    if (error instanceof PasskeyError) return error.message
    if (error && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      return messages.registered
    if (error && (error.name === "NotAllowedError" || error.name === "AbortError"))
      return messages.cancelled
    return messages.failed
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

  async function ceremony(form) {
    var options = await fetchOptions(form, fieldsOf(form))
    var result =
      options.action === "register"
        ? await lib.startRegistration({ optionsJSON: options.options })
        : await lib.startAuthentication({ optionsJSON: options.options })
    await finish(form, options.action, result)
  }

  var rearmTimer

  /**
   * Passkey autofill: a pending conditional request the browser answers when the
   * user picks a passkey in the e-mail field's suggestions. Its challenge expires,
   * so it is renewed shortly before (the options' `timeout` is the challenge's life).
   */
  async function armAutofill(form) {
    clearTimeout(rearmTimer)
    try {
      if (!(await lib.browserSupportsWebAuthnAutofill())) return
      var options = await fetchOptions(form, new URLSearchParams({ action: "authenticate" }))
      var life = Number(options.options.timeout) || 60000
      rearmTimer = setTimeout(
        function () {
          armAutofill(form)
        },
        Math.max(life - 15000, 10000),
      )
      var result = await lib.startAuthentication({
        optionsJSON: options.options,
        useBrowserAutofill: true,
      })
      clearTimeout(rearmTimer)
      await finish(form, "authenticate", result)
    } catch (error) {
      // Aborted by a button ceremony or a renewal: nothing to tell the user.
      if (error && (error.name === "AbortError" || error.code === "ERROR_CEREMONY_ABORTED")) return
      showError(form, messageOf(error))
    }
  }

  function setup(form) {
    var conditional = form.hasAttribute("data-conditional-ui")
    form.addEventListener("submit", async function (event) {
      event.preventDefault()
      var button = form.querySelector("button[type=submit]")
      if (!lib.browserSupportsWebAuthn()) return showError(form, messages.unsupported)
      showError(form, "")
      if (button) button.disabled = true
      try {
        await ceremony(form)
      } catch (error) {
        showError(form, messageOf(error))
        if (conditional) armAutofill(form)
      } finally {
        if (button) button.disabled = false
      }
    })
    if (conditional) armAutofill(form)
  }

  function start() {
    var forms = document.querySelectorAll("form[data-webauthn-provider]")
    for (var i = 0; i < forms.length; i++) setup(forms[i])
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
})()
