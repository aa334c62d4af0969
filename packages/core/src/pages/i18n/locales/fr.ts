/** French. Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const fr: Messages = {
  "signIn.title": "Connexion",
  "signIn.with": "Se connecter avec {provider}",
  "signIn.or": "ou",
  "signIn.pending": "Connexion…",
  "signIn.error.Signin":
    "Le formulaire de connexion a expiré, ou votre navigateur a bloqué son cookie. Rechargez la page et réessayez.",
  "signIn.error.OAuthSignin":
    "Impossible de lancer la connexion avec ce fournisseur. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.OAuthCallbackError":
    "La connexion avec ce fournisseur a échoué. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.OAuthCallbackError.access_denied":
    "La connexion a été annulée ou refusée par le fournisseur. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.OAuthCreateAccount":
    "Impossible de créer votre compte. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.EmailCreateAccount":
    "Impossible de créer votre compte. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.Callback":
    "La connexion a échoué. Réessayez ou choisissez un autre moyen de connexion.",
  "signIn.error.OAuthAccountNotLinked":
    "Cette adresse e-mail appartient déjà à un compte. Connectez-vous comme la dernière fois, puis associez ce moyen de connexion depuis votre compte.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "Un compte utilise déjà cette adresse e-mail. Connectez-vous d'abord à ce compte (avec sa clé d'accès ou un lien par e-mail), puis ajoutez une nouvelle clé d'accès depuis votre compte.",
  "signIn.error.EmailSignin": "L'e-mail n'a pas pu être envoyé. Vérifiez l'adresse et réessayez.",
  "signIn.error.CredentialsSignin":
    "Échec de la connexion. Vérifiez que les informations saisies sont correctes.",
  "signIn.error.SessionRequired": "Connectez-vous pour accéder à cette page.",
  "signIn.error.RateLimited": "Trop de tentatives. Attendez quelques minutes, puis réessayez.",
  "signIn.error.TwoFactor": "Le code du second facteur n’a pas fonctionné. Reconnectez-vous.",
  "signIn.error.TwoFactorExpired": "La connexion a pris trop de temps. Reconnectez-vous.",
  "signIn.error.default":
    "Connexion impossible. Réessayez ou choisissez un autre moyen de connexion.",

  "email.label": "Adresse e-mail",
  "email.placeholder": "nom@example.com",
  "email.submit": "Envoyer un lien de connexion",
  "email.pending": "Envoi en cours…",

  "passkey.submit": "Se connecter avec une clé d'accès",
  "passkey.pending": "En attente de votre clé d'accès…",
  "passkey.unsupported":
    "Ce navigateur ne prend pas en charge les clés d'accès. Choisissez un autre moyen de connexion.",
  "passkey.cancelled": "La demande de clé d'accès a été annulée ou a expiré. Réessayez.",
  "passkey.registered":
    "Cet appareil a déjà une clé d'accès pour ce compte. Utilisez-la pour vous connecter.",
  "passkey.failed":
    "La connexion avec la clé d'accès a échoué. Réessayez ou choisissez un autre moyen de connexion.",
  "passkey.ipAddress":
    "Les clés d'accès ne fonctionnent pas avec une adresse IP comme {host}. Ouvrez plutôt cette page sur localhost ou sur le nom de domaine du site.",

  "signOut.title": "Déconnexion",
  "signOut.confirm": "Voulez-vous vraiment vous déconnecter\u00a0?",
  "signOut.submit": "Se déconnecter",
  "signOut.pending": "Déconnexion…",
  "signOut.cancel": "Annuler",
  "signOut.signedOut": "Vous n'êtes pas connecté.",
  "signOut.back": "Retour",
  "signOut.signIn": "Se connecter",

  "verifyRequest.title": "Consultez vos e-mails",
  "verifyRequest.message":
    "Un lien de connexion vous a été envoyé par e-mail. Ouvrez-le pour vous connecter\u00a0; vous pouvez fermer cette page.",
  "verifyRequest.back": "Retour à {host}",
  "verifyRequest.code":
    "Nous avons envoyé un code de connexion à votre adresse e-mail. Saisissez-le ci-dessous.",
  "verifyRequest.codeLabel": "Code de connexion",
  "verifyRequest.submit": "Se connecter",
  "confirmLink.title": "Connexion",
  "confirmLink.prompt": "Se connecter en tant que {email}",
  "confirmLink.submit": "Se connecter",
  "confirmLink.note":
    "Ce lien ne fonctionne qu’une fois. Si vous n’avez pas demandé à vous connecter, fermez cette page.",
  "twoFactor.title": "Authentification à deux facteurs",
  "twoFactor.prompt":
    "Saisissez le code à 6 chiffres de votre application d’authentification, ou l’un de vos codes de récupération.",
  "twoFactor.codeLabel": "Code",
  "twoFactor.submit": "Valider",
  "twoFactor.pending": "Vérification…",
  "twoFactor.startOver": "Se reconnecter",
  "twoFactor.passkey": "Utiliser une clé d'accès",
  "code.error.Verification": "Ce code n’a pas fonctionné. Vérifiez-le ou demandez-en un nouveau.",
  "code.error.TwoFactor": "Ce code n’a pas fonctionné. Réessayez.",
  "code.error.RateLimited": "Trop de tentatives. Attendez quelques minutes, puis réessayez.",
  "code.error.default": "Cela n’a pas fonctionné. Réessayez.",

  "error.Configuration.heading": "Erreur du serveur",
  "error.Configuration.message":
    "La configuration du serveur pose problème. Consultez les journaux du serveur pour en savoir plus.",
  "error.AccessDenied.heading": "Accès refusé",
  "error.AccessDenied.message":
    "Vous n'avez pas l'autorisation de vous connecter. S'il s'agit d'une erreur, contactez le responsable du site ou connectez-vous avec un autre compte.",
  "error.Verification.heading": "Connexion impossible",
  "error.Verification.message":
    "Le lien de connexion n'est plus valide. Il a peut-être déjà été utilisé ou il a expiré. Reconnectez-vous pour en recevoir un nouveau.",
  "error.default.heading": "Erreur",
  "error.default.message": "Un problème est survenu pendant la connexion. Veuillez réessayer.",
  "error.signIn": "Se connecter",
  "error.home": "Aller à la page d'accueil",

  "mail.subject": "Connexion à {host}",
  "mail.heading": "Connexion à {host}",
  "mail.button": "Se connecter",
  "mail.ignore": "Si vous n'avez pas demandé cet e-mail, vous pouvez l'ignorer.",
  "mail.code": "Votre code de connexion :",
  "mail.or": "ou",
  "mail.orLink": "Ou connectez-vous avec ce lien :",
  "mail.codeOnce": "Le code fonctionne une seule fois, pendant 10 minutes.",
}

export default fr
