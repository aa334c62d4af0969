/** Japanese. Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const ja: Messages = {
  "signIn.title": "ログイン",
  "signIn.with": "{provider} でログイン",
  "signIn.or": "または",
  "signIn.pending": "ログインしています…",
  "signIn.error.Signin":
    "ログインフォームの有効期限が切れたか、ブラウザーが Cookie をブロックしました。ページを再読み込みして、もう一度お試しください。",
  "signIn.error.OAuthSignin":
    "このプロバイダーでのログインを開始できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.OAuthCallbackError":
    "このプロバイダーでのログインに失敗しました。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.OAuthCallbackError.access_denied":
    "ログインがキャンセルされたか、プロバイダーに拒否されました。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.OAuthCreateAccount":
    "アカウントを作成できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.EmailCreateAccount":
    "アカウントを作成できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.Callback":
    "ログインに失敗しました。もう一度お試しいただくか、別の方法でログインしてください。",
  "signIn.error.OAuthAccountNotLinked":
    "このメールアドレスはすでにアカウントに登録されています。前回と同じ方法でログインしてから、アカウントでこのログイン方法を連携してください。",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "このメールアドレスはすでにアカウントで使われています。先にそのアカウントに（パスキーまたはメールのリンクで）ログインしてから、アカウントで新しいパスキーを追加してください。",
  "signIn.error.EmailSignin":
    "メールを送信できませんでした。アドレスを確認して、もう一度お試しください。",
  "signIn.error.CredentialsSignin": "ログインに失敗しました。入力内容が正しいか確認してください。",
  "signIn.error.SessionRequired": "このページを表示するにはログインしてください。",
  "signIn.error.RateLimited": "試行回数が多すぎます。数分待ってから、もう一度お試しください。",
  "signIn.error.TwoFactor":
    "2 段階認証のコードが正しくありませんでした。もう一度ログインしてください。",
  "signIn.error.TwoFactorExpired":
    "ログインに時間がかかりすぎました。もう一度ログインしてください。",
  "signIn.error.default":
    "ログインできません。もう一度お試しいただくか、別の方法でログインしてください。",

  "email.label": "メールアドレス",
  "email.placeholder": "name@example.com",
  "email.submit": "ログインリンクを送信",
  "email.pending": "送信しています…",

  "passkey.submit": "パスキーでログイン",
  "passkey.pending": "パスキーを待っています…",
  "passkey.unsupported":
    "このブラウザーはパスキーに対応していません。別の方法でログインしてください。",
  "passkey.cancelled":
    "パスキーのリクエストがキャンセルされたか、タイムアウトしました。もう一度お試しください。",
  "passkey.registered":
    "このデバイスにはすでにこのアカウントのパスキーがあります。そのパスキーでログインしてください。",
  "passkey.failed":
    "パスキーでのログインに失敗しました。もう一度お試しいただくか、別の方法でログインしてください。",
  "passkey.ipAddress":
    "パスキーは {host} のような IP アドレスでは使えません。代わりに localhost またはサイトのドメイン名でこのページを開いてください。",

  "signOut.title": "ログアウト",
  "signOut.confirm": "ログアウトしてもよろしいですか？",
  "signOut.submit": "ログアウト",
  "signOut.pending": "ログアウトしています…",
  "signOut.cancel": "キャンセル",
  "signOut.signedOut": "ログインしていません。",
  "signOut.back": "戻る",
  "signOut.signIn": "ログイン",

  "verifyRequest.title": "メールを確認してください",
  "verifyRequest.message":
    "ログイン用のリンクをメールでお送りしました。リンクを開いてログインしてください。このページは閉じてもかまいません。",
  "verifyRequest.back": "{host} に戻る",
  "verifyRequest.code": "ログインコードをメールアドレスに送信しました。下に入力してください。",
  "verifyRequest.codeLabel": "ログインコード",
  "verifyRequest.submit": "ログイン",
  "confirmLink.title": "ログイン",
  "confirmLink.prompt": "{email} としてログイン",
  "confirmLink.submit": "ログイン",
  "confirmLink.note":
    "このリンクは 1 回だけ使えます。ログインを求めていない場合は、このページを閉じてください。",
  "twoFactor.title": "2 段階認証",
  "twoFactor.prompt":
    "認証アプリに表示される 6 桁のコード、またはリカバリーコードのいずれかを入力してください。",
  "twoFactor.codeLabel": "コード",
  "twoFactor.submit": "確認",
  "twoFactor.pending": "確認しています…",
  "twoFactor.startOver": "もう一度ログイン",
  "twoFactor.passkey": "パスキーを使用",
  "code.error.Verification":
    "このコードは使えませんでした。確認するか、新しいコードを請求してください。",
  "code.error.TwoFactor": "このコードは使えませんでした。もう一度お試しください。",
  "code.error.RateLimited": "試行回数が多すぎます。数分待ってから、もう一度お試しください。",
  "code.error.default": "うまくいきませんでした。もう一度お試しください。",

  "error.Configuration.heading": "サーバーエラー",
  "error.Configuration.message":
    "サーバーの設定に問題があります。詳しくはサーバーのログを確認してください。",
  "error.AccessDenied.heading": "アクセスが拒否されました",
  "error.AccessDenied.message":
    "ログインする権限がありません。誤りだと思われる場合は、サイトの管理者に連絡するか、別のアカウントでログインしてください。",
  "error.Verification.heading": "ログインできません",
  "error.Verification.message":
    "ログインリンクは無効になっています。すでに使用されたか、有効期限が切れた可能性があります。もう一度ログインして、新しいリンクを受け取ってください。",
  "error.default.heading": "エラー",
  "error.default.message": "ログイン中に問題が発生しました。もう一度お試しください。",
  "error.signIn": "ログイン",
  "error.home": "ホームページへ",

  "mail.subject": "{host} にログイン",
  "mail.heading": "{host} にログイン",
  "mail.button": "ログイン",
  "mail.ignore": "このメールに心当たりがない場合は、無視してください。",
  "mail.code": "ログインコード:",
  "mail.or": "または",
  "mail.orLink": "または、こちらのリンクからログイン:",
  "mail.codeOnce": "このコードは 1 回だけ、10 分間有効です。",
}

export default ja
