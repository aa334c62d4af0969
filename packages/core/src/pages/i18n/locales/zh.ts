/** Chinese (Simplified). Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const zh: Messages = {
  "signIn.title": "登录",
  "signIn.with": "使用 {provider} 登录",
  "signIn.or": "或",
  "signIn.pending": "正在登录…",
  "signIn.error.Signin": "登录表单已过期，或者浏览器阻止了它的 Cookie。请刷新页面后重试。",
  "signIn.error.OAuthSignin": "无法开始使用该服务商登录。请重试，或选择其他登录方式。",
  "signIn.error.OAuthCallbackError": "使用该服务商登录失败。请重试，或选择其他登录方式。",
  "signIn.error.OAuthCallbackError.access_denied":
    "登录已取消，或被服务商拒绝。请重试，或选择其他登录方式。",
  "signIn.error.OAuthCreateAccount": "无法创建你的账号。请重试，或选择其他登录方式。",
  "signIn.error.EmailCreateAccount": "无法创建你的账号。请重试，或选择其他登录方式。",
  "signIn.error.Callback": "登录失败。请重试，或选择其他登录方式。",
  "signIn.error.OAuthAccountNotLinked":
    "该邮箱地址已属于一个账号。请用上次的方式登录，然后在账号中关联此登录方式。",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "已有账号使用该邮箱地址。请先登录该账号（使用它的通行密钥或邮件链接），再在账号中添加新的通行密钥。",
  "signIn.error.EmailSignin": "邮件发送失败。请检查邮箱地址后重试。",
  "signIn.error.CredentialsSignin": "登录失败。请检查输入的信息是否正确。",
  "signIn.error.SessionRequired": "请登录后访问此页面。",
  "signIn.error.default": "无法登录。请重试，或选择其他登录方式。",

  "email.label": "邮箱",
  "email.placeholder": "name@example.com",
  "email.submit": "发送登录链接",
  "email.pending": "正在发送…",

  "passkey.submit": "使用通行密钥登录",
  "passkey.pending": "正在等待通行密钥…",
  "passkey.unsupported": "此浏览器不支持通行密钥。请选择其他登录方式。",
  "passkey.cancelled": "通行密钥请求已取消或已超时。请重试。",
  "passkey.registered": "此设备上已有该账号的通行密钥。请用它登录。",
  "passkey.failed": "通行密钥登录失败。请重试，或选择其他登录方式。",
  "passkey.ipAddress":
    "通行密钥无法在 {host} 这样的 IP 地址上使用。请改用 localhost 或网站的域名打开此页面。",

  "signOut.title": "退出登录",
  "signOut.confirm": "确定要退出登录吗？",
  "signOut.submit": "退出登录",
  "signOut.pending": "正在退出…",
  "signOut.cancel": "取消",
  "signOut.signedOut": "你尚未登录。",
  "signOut.back": "返回",
  "signOut.signIn": "登录",

  "verifyRequest.title": "请查收邮件",
  "verifyRequest.message": "登录链接已发送到你的邮箱。打开链接即可登录，此页面可以关闭。",
  "verifyRequest.back": "返回 {host}",

  "error.Configuration.heading": "服务器错误",
  "error.Configuration.message": "服务器配置有问题。详情请查看服务器日志。",
  "error.AccessDenied.heading": "拒绝访问",
  "error.AccessDenied.message":
    "你没有登录权限。如果你认为这是个错误，请联系网站管理员，或使用其他账号登录。",
  "error.Verification.heading": "无法登录",
  "error.Verification.message": "登录链接已失效，可能已被使用或已过期。请重新登录以获取新链接。",
  "error.default.heading": "错误",
  "error.default.message": "登录时出了点问题。请重试。",
  "error.signIn": "登录",
  "error.home": "返回首页",

  "mail.subject": "登录 {host}",
  "mail.heading": "登录 {host}",
  "mail.button": "登录",
  "mail.ignore": "如果你没有请求此邮件，可以忽略它。",
}

export default zh
