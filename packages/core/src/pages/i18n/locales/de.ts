/** German. Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const de: Messages = {
  "signIn.title": "Anmelden",
  "signIn.with": "Mit {provider} anmelden",
  "signIn.or": "oder",
  "signIn.pending": "Anmeldung läuft …",
  "signIn.error.Signin":
    "Das Anmeldeformular ist abgelaufen, oder Ihr Browser hat sein Cookie blockiert. Laden Sie die Seite neu und versuchen Sie es noch einmal.",
  "signIn.error.OAuthSignin":
    "Die Anmeldung bei diesem Anbieter konnte nicht gestartet werden. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.OAuthCallbackError":
    "Die Anmeldung bei diesem Anbieter hat nicht funktioniert. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.OAuthCallbackError.access_denied":
    "Die Anmeldung wurde abgebrochen oder vom Anbieter abgelehnt. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.OAuthCreateAccount":
    "Ihr Konto konnte nicht erstellt werden. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.EmailCreateAccount":
    "Ihr Konto konnte nicht erstellt werden. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.Callback":
    "Die Anmeldung hat nicht funktioniert. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "signIn.error.OAuthAccountNotLinked":
    "Diese E-Mail-Adresse gehört bereits zu einem Konto. Melden Sie sich so an wie beim letzten Mal und verknüpfen Sie dann diese Anmeldemethode in Ihrem Konto.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "Diese E-Mail-Adresse wird bereits von einem Konto verwendet. Melden Sie sich zuerst dort an (mit seinem Passkey oder einem E-Mail-Link) und fügen Sie dann in Ihrem Konto einen neuen Passkey hinzu.",
  "signIn.error.EmailSignin":
    "Die E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es noch einmal.",
  "signIn.error.CredentialsSignin":
    "Die Anmeldung ist fehlgeschlagen. Prüfen Sie, ob Ihre Angaben stimmen.",
  "signIn.error.SessionRequired": "Bitte melden Sie sich an, um diese Seite zu sehen.",
  "signIn.error.RateLimited":
    "Zu viele Versuche. Warten Sie ein paar Minuten und versuchen Sie es dann noch einmal.",
  "signIn.error.TwoFactor":
    "Der Code für den zweiten Faktor hat nicht funktioniert. Melden Sie sich erneut an.",
  "signIn.error.TwoFactorExpired":
    "Die Anmeldung hat zu lange gedauert. Melden Sie sich erneut an.",
  "signIn.error.default":
    "Anmeldung nicht möglich. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",

  "email.label": "E-Mail",
  "email.placeholder": "name@example.com",
  "email.submit": "Anmeldelink senden",
  "email.pending": "Wird gesendet …",

  "passkey.submit": "Mit Passkey anmelden",
  "passkey.pending": "Warten auf Ihren Passkey …",
  "passkey.unsupported":
    "Dieser Browser unterstützt keine Passkeys. Wählen Sie eine andere Anmeldemethode.",
  "passkey.cancelled":
    "Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen. Versuchen Sie es noch einmal.",
  "passkey.registered":
    "Dieses Gerät hat bereits einen Passkey für dieses Konto. Melden Sie sich damit an.",
  "passkey.failed":
    "Die Anmeldung mit Passkey ist fehlgeschlagen. Versuchen Sie es noch einmal oder wählen Sie eine andere Anmeldemethode.",
  "passkey.ipAddress":
    "Passkeys funktionieren nicht unter einer IP-Adresse wie {host}. Öffnen Sie diese Seite stattdessen unter localhost oder unter dem Domainnamen der Website.",

  "signOut.title": "Abmelden",
  "signOut.confirm": "Möchten Sie sich wirklich abmelden?",
  "signOut.submit": "Abmelden",
  "signOut.pending": "Abmeldung läuft …",
  "signOut.cancel": "Abbrechen",
  "signOut.signedOut": "Sie sind nicht angemeldet.",
  "signOut.back": "Zurück",
  "signOut.signIn": "Anmelden",

  "verifyRequest.title": "Prüfen Sie Ihre E-Mails",
  "verifyRequest.message":
    "Wir haben Ihnen einen Anmeldelink per E-Mail geschickt. Öffnen Sie ihn, um sich anzumelden; diese Seite können Sie schließen.",
  "verifyRequest.back": "Zurück zu {host}",
  "verifyRequest.code":
    "Wir haben Ihnen einen Anmeldecode per E-Mail geschickt. Geben Sie ihn unten ein.",
  "verifyRequest.codeLabel": "Anmeldecode",
  "verifyRequest.submit": "Anmelden",
  "confirmLink.title": "Anmelden",
  "confirmLink.prompt": "Als {email} anmelden",
  "confirmLink.submit": "Anmelden",
  "confirmLink.note":
    "Dieser Link funktioniert nur einmal. Wenn Sie sich nicht anmelden wollten, schließen Sie diese Seite.",
  "twoFactor.title": "Zwei-Faktor-Authentifizierung",
  "twoFactor.prompt":
    "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.",
  "twoFactor.codeLabel": "Code",
  "twoFactor.submit": "Bestätigen",
  "twoFactor.pending": "Wird geprüft …",
  "twoFactor.startOver": "Erneut anmelden",
  "twoFactor.passkey": "Passkey verwenden",
  "code.error.Verification":
    "Dieser Code hat nicht funktioniert. Prüfen Sie ihn oder fordern Sie einen neuen an.",
  "code.error.TwoFactor": "Dieser Code hat nicht funktioniert. Versuchen Sie es noch einmal.",
  "code.error.RateLimited":
    "Zu viele Versuche. Warten Sie ein paar Minuten und versuchen Sie es dann noch einmal.",
  "code.error.default": "Das hat nicht funktioniert. Versuchen Sie es noch einmal.",

  "error.Configuration.heading": "Serverfehler",
  "error.Configuration.message":
    "Es gibt ein Problem mit der Serverkonfiguration. Einzelheiten stehen in den Serverprotokollen.",
  "error.AccessDenied.heading": "Zugriff verweigert",
  "error.AccessDenied.message":
    "Sie haben keine Berechtigung, sich anzumelden. Wenn Sie das für einen Irrtum halten, wenden Sie sich an den Betreiber der Website oder melden Sie sich mit einem anderen Konto an.",
  "error.Verification.heading": "Anmeldung nicht möglich",
  "error.Verification.message":
    "Der Anmeldelink ist nicht mehr gültig. Er wurde vielleicht schon verwendet oder ist abgelaufen. Melden Sie sich erneut an, um einen neuen zu erhalten.",
  "error.default.heading": "Fehler",
  "error.default.message":
    "Bei der Anmeldung ist etwas schiefgelaufen. Bitte versuchen Sie es noch einmal.",
  "error.signIn": "Anmelden",
  "error.home": "Zur Startseite",

  "mail.subject": "Anmelden bei {host}",
  "mail.heading": "Anmelden bei {host}",
  "mail.button": "Anmelden",
  "mail.ignore":
    "Wenn Sie diese E-Mail nicht angefordert haben, können Sie sie einfach ignorieren.",
  "mail.code": "Ihr Anmeldecode:",
  "mail.or": "oder",
  "mail.orLink": "Oder melden Sie sich mit diesem Link an:",
  "mail.codeOnce": "Der Code funktioniert einmal, 10 Minuten lang.",
}

export default de
