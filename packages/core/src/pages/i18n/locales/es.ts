/** Spanish. Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const es: Messages = {
  "signIn.title": "Iniciar sesión",
  "signIn.with": "Iniciar sesión con {provider}",
  "signIn.or": "o",
  "signIn.pending": "Iniciando sesión…",
  "signIn.error.Signin":
    "El formulario de inicio de sesión caducó o tu navegador bloqueó su cookie. Recarga la página e inténtalo de nuevo.",
  "signIn.error.OAuthSignin":
    "No se pudo empezar a iniciar sesión con ese proveedor. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.OAuthCallbackError":
    "No se pudo iniciar sesión con ese proveedor. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.OAuthCallbackError.access_denied":
    "Se canceló el inicio de sesión o el proveedor lo rechazó. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.OAuthCreateAccount":
    "No se pudo crear tu cuenta. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.EmailCreateAccount":
    "No se pudo crear tu cuenta. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.Callback":
    "No se pudo iniciar sesión. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "signIn.error.OAuthAccountNotLinked":
    "Esta dirección de correo ya pertenece a una cuenta. Inicia sesión como la última vez y después vincula este método desde tu cuenta.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "Ya hay una cuenta con esta dirección de correo. Inicia sesión en ella primero (con su llave de acceso o con un enlace por correo) y después añade una nueva llave de acceso desde tu cuenta.",
  "signIn.error.EmailSignin":
    "No se pudo enviar el correo. Comprueba la dirección e inténtalo de nuevo.",
  "signIn.error.CredentialsSignin":
    "No se pudo iniciar sesión. Comprueba que los datos introducidos son correctos.",
  "signIn.error.SessionRequired": "Inicia sesión para acceder a esta página.",
  "signIn.error.RateLimited": "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
  "signIn.error.TwoFactor": "El código del segundo factor no funcionó. Vuelve a iniciar sesión.",
  "signIn.error.TwoFactorExpired": "El inicio de sesión tardó demasiado. Vuelve a iniciar sesión.",
  "signIn.error.default":
    "No se puede iniciar sesión. Inténtalo de nuevo o elige otra forma de iniciar sesión.",

  "email.label": "Correo electrónico",
  "email.placeholder": "nombre@example.com",
  "email.submit": "Enviar enlace de acceso",
  "email.pending": "Enviando…",

  "passkey.submit": "Iniciar sesión con una llave de acceso",
  "passkey.pending": "Esperando tu llave de acceso…",
  "passkey.unsupported":
    "Este navegador no admite llaves de acceso. Elige otra forma de iniciar sesión.",
  "passkey.cancelled":
    "La solicitud de la llave de acceso se canceló o caducó. Inténtalo de nuevo.",
  "passkey.registered":
    "Este dispositivo ya tiene una llave de acceso para esta cuenta. Úsala para iniciar sesión.",
  "passkey.failed":
    "No se pudo iniciar sesión con la llave de acceso. Inténtalo de nuevo o elige otra forma de iniciar sesión.",
  "passkey.ipAddress":
    "Las llaves de acceso no funcionan en una dirección IP como {host}. Abre esta página en localhost o en el nombre de dominio del sitio.",

  "signOut.title": "Cerrar sesión",
  "signOut.confirm": "¿Seguro que quieres cerrar sesión?",
  "signOut.submit": "Cerrar sesión",
  "signOut.pending": "Cerrando sesión…",
  "signOut.cancel": "Cancelar",
  "signOut.signedOut": "No has iniciado sesión.",
  "signOut.back": "Volver",
  "signOut.signIn": "Iniciar sesión",

  "verifyRequest.title": "Revisa tu correo",
  "verifyRequest.message":
    "Te hemos enviado un enlace de acceso por correo. Ábrelo para iniciar sesión; puedes cerrar esta página.",
  "verifyRequest.back": "Volver a {host}",
  "verifyRequest.code":
    "Hemos enviado un código de inicio de sesión a tu correo electrónico. Escríbelo abajo.",
  "verifyRequest.codeLabel": "Código de inicio de sesión",
  "verifyRequest.submit": "Iniciar sesión",
  "confirmLink.title": "Iniciar sesión",
  "confirmLink.prompt": "Iniciar sesión como {email}",
  "confirmLink.submit": "Iniciar sesión",
  "confirmLink.note":
    "Este enlace solo funciona una vez. Si no pediste iniciar sesión, cierra esta página.",
  "twoFactor.title": "Autenticación en dos pasos",
  "twoFactor.prompt":
    "Escribe el código de 6 dígitos de tu aplicación de autenticación o uno de tus códigos de recuperación.",
  "twoFactor.codeLabel": "Código",
  "twoFactor.submit": "Verificar",
  "twoFactor.pending": "Verificando…",
  "twoFactor.startOver": "Volver a iniciar sesión",
  "twoFactor.passkey": "Usar una llave de acceso",
  "code.error.Verification": "Ese código no funcionó. Revísalo o pide uno nuevo.",
  "code.error.TwoFactor": "Ese código no funcionó. Inténtalo de nuevo.",
  "code.error.RateLimited": "Demasiados intentos. Espera unos minutos y vuelve a intentarlo.",
  "code.error.default": "No funcionó. Inténtalo de nuevo.",

  "error.Configuration.heading": "Error del servidor",
  "error.Configuration.message":
    "Hay un problema con la configuración del servidor. Consulta los registros del servidor para más información.",
  "error.AccessDenied.heading": "Acceso denegado",
  "error.AccessDenied.message":
    "No tienes permiso para iniciar sesión. Si crees que es un error, contacta con el responsable del sitio o inicia sesión con otra cuenta.",
  "error.Verification.heading": "No se puede iniciar sesión",
  "error.Verification.message":
    "El enlace de acceso ya no es válido. Puede que ya se haya usado o que haya caducado. Vuelve a iniciar sesión para recibir uno nuevo.",
  "error.default.heading": "Error",
  "error.default.message": "Algo salió mal al iniciar sesión. Inténtalo de nuevo.",
  "error.signIn": "Iniciar sesión",
  "error.home": "Ir a la página de inicio",

  "mail.subject": "Inicia sesión en {host}",
  "mail.heading": "Inicia sesión en {host}",
  "mail.button": "Iniciar sesión",
  "mail.ignore": "Si no has solicitado este correo, puedes ignorarlo.",
  "mail.code": "Tu código de inicio de sesión:",
  "mail.or": "o",
  "mail.orLink": "O inicia sesión con este enlace:",
  "mail.codeOnce": "El código funciona una vez, durante 10 minutos.",
}

export default es
