/** Russian. Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const ru: Messages = {
  "signIn.title": "Вход",
  "signIn.with": "Войти через {provider}",
  "signIn.or": "или",
  "signIn.pending": "Выполняется вход…",
  "signIn.error.Signin":
    "Срок действия формы входа истёк, или браузер заблокировал её cookie. Обновите страницу и попробуйте ещё раз.",
  "signIn.error.OAuthSignin":
    "Не удалось начать вход через этого провайдера. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.OAuthCallbackError":
    "Не удалось войти через этого провайдера. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.OAuthCallbackError.access_denied":
    "Вход был отменён или отклонён провайдером. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.OAuthCreateAccount":
    "Не удалось создать учётную запись. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.EmailCreateAccount":
    "Не удалось создать учётную запись. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.Callback": "Не удалось войти. Попробуйте ещё раз или выберите другой способ входа.",
  "signIn.error.OAuthAccountNotLinked":
    "Этот адрес электронной почты уже принадлежит учётной записи. Войдите так же, как в прошлый раз, а затем привяжите этот способ входа в своей учётной записи.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "Этот адрес электронной почты уже используется учётной записью. Сначала войдите в неё (с её ключом доступа или по ссылке из письма), а затем добавьте новый ключ доступа в своей учётной записи.",
  "signIn.error.EmailSignin": "Не удалось отправить письмо. Проверьте адрес и попробуйте ещё раз.",
  "signIn.error.CredentialsSignin": "Не удалось войти. Проверьте, правильно ли введены данные.",
  "signIn.error.SessionRequired": "Войдите, чтобы открыть эту страницу.",
  "signIn.error.RateLimited":
    "Слишком много попыток. Подождите несколько минут и попробуйте снова.",
  "signIn.error.TwoFactor": "Код второго фактора не подошёл. Войдите заново.",
  "signIn.error.TwoFactorExpired": "Вход занял слишком много времени. Войдите заново.",
  "signIn.error.default": "Не удалось войти. Попробуйте ещё раз или выберите другой способ входа.",

  "email.label": "Электронная почта",
  "email.placeholder": "name@example.com",
  "email.submit": "Отправить ссылку для входа",
  "email.pending": "Отправка…",

  "passkey.submit": "Войти с ключом доступа",
  "passkey.pending": "Ожидание ключа доступа…",
  "passkey.unsupported":
    "Этот браузер не поддерживает ключи доступа. Выберите другой способ входа.",
  "passkey.cancelled":
    "Запрос ключа доступа отменён, или время ожидания истекло. Попробуйте ещё раз.",
  "passkey.registered":
    "На этом устройстве уже есть ключ доступа для этой учётной записи. Войдите с ним.",
  "passkey.failed":
    "Не удалось войти с ключом доступа. Попробуйте ещё раз или выберите другой способ входа.",
  "passkey.ipAddress":
    "Ключи доступа не работают на IP-адресе, таком как {host}. Откройте эту страницу через localhost или по доменному имени сайта.",

  "signOut.title": "Выход",
  "signOut.confirm": "Вы действительно хотите выйти?",
  "signOut.submit": "Выйти",
  "signOut.pending": "Выполняется выход…",
  "signOut.cancel": "Отмена",
  "signOut.signedOut": "Вы не вошли в систему.",
  "signOut.back": "Назад",
  "signOut.signIn": "Войти",

  "verifyRequest.title": "Проверьте почту",
  "verifyRequest.message":
    "Мы отправили ссылку для входа на ваш адрес электронной почты. Откройте её, чтобы войти; эту страницу можно закрыть.",
  "verifyRequest.back": "Вернуться на {host}",
  "verifyRequest.code":
    "Мы отправили код для входа на ваш адрес электронной почты. Введите его ниже.",
  "verifyRequest.codeLabel": "Код для входа",
  "verifyRequest.submit": "Войти",
  "confirmLink.title": "Вход",
  "confirmLink.prompt": "Войти как {email}",
  "confirmLink.submit": "Войти",
  "confirmLink.note":
    "Эта ссылка работает один раз. Если вы не пытались войти, закройте эту страницу.",
  "twoFactor.title": "Двухфакторная аутентификация",
  "twoFactor.prompt":
    "Введите 6-значный код из приложения-аутентификатора или один из резервных кодов.",
  "twoFactor.codeLabel": "Код",
  "twoFactor.submit": "Подтвердить",
  "twoFactor.pending": "Проверка…",
  "twoFactor.startOver": "Войти заново",
  "twoFactor.passkey": "Использовать ключ доступа",
  "code.error.Verification": "Код не подошёл. Проверьте его или запросите новый.",
  "code.error.TwoFactor": "Код не подошёл. Попробуйте ещё раз.",
  "code.error.RateLimited": "Слишком много попыток. Подождите несколько минут и попробуйте снова.",
  "code.error.default": "Не получилось. Попробуйте ещё раз.",

  "error.Configuration.heading": "Ошибка сервера",
  "error.Configuration.message":
    "Проблема с конфигурацией сервера. Подробности смотрите в журналах сервера.",
  "error.AccessDenied.heading": "Доступ запрещён",
  "error.AccessDenied.message":
    "У вас нет разрешения на вход. Если вы считаете, что это ошибка, свяжитесь с владельцем сайта или войдите с другой учётной записью.",
  "error.Verification.heading": "Не удалось войти",
  "error.Verification.message":
    "Ссылка для входа больше не действительна: возможно, ею уже воспользовались или срок её действия истёк. Войдите снова, чтобы получить новую.",
  "error.default.heading": "Ошибка",
  "error.default.message": "Во время входа что-то пошло не так. Попробуйте ещё раз.",
  "error.signIn": "Войти",
  "error.home": "На главную",

  "mail.subject": "Вход на {host}",
  "mail.heading": "Вход на {host}",
  "mail.button": "Войти",
  "mail.ignore": "Если вы не запрашивали это письмо, просто проигнорируйте его.",
  "mail.code": "Ваш код для входа:",
  "mail.or": "или",
  "mail.orLink": "Или войдите по этой ссылке:",
  "mail.codeOnce": "Код действует один раз в течение 10 минут.",
}

export default ru
