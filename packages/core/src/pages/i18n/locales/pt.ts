/** Portuguese (Brazilian usage). Keys and placeholders as in `en.ts`. @module */
import type { Messages } from "../localization.js"

const pt: Messages = {
  "signIn.title": "Entrar",
  "signIn.with": "Entrar com {provider}",
  "signIn.or": "ou",
  "signIn.pending": "Entrando…",
  "signIn.error.Signin":
    "O formulário de login expirou, ou o navegador bloqueou o cookie dele. Recarregue a página e tente de novo.",
  "signIn.error.OAuthSignin":
    "Não foi possível começar o login com esse provedor. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.OAuthCallbackError":
    "O login com esse provedor não funcionou. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.OAuthCallbackError.access_denied":
    "O login foi cancelado ou recusado pelo provedor. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.OAuthCreateAccount":
    "Não foi possível criar sua conta. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.EmailCreateAccount":
    "Não foi possível criar sua conta. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.Callback": "O login não funcionou. Tente de novo ou escolha outra forma de entrar.",
  "signIn.error.OAuthAccountNotLinked":
    "Este e-mail já pertence a uma conta. Entre do mesmo jeito que da última vez e depois vincule este método de login na sua conta.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "Já existe uma conta com este e-mail. Entre nela primeiro (com a chave de acesso dela ou com um link por e-mail) e depois adicione uma nova chave de acesso na sua conta.",
  "signIn.error.EmailSignin":
    "Não foi possível enviar o e-mail. Confira o endereço e tente de novo.",
  "signIn.error.CredentialsSignin":
    "Falha no login. Confira se os dados informados estão corretos.",
  "signIn.error.SessionRequired": "Entre para acessar esta página.",
  "signIn.error.RateLimited": "Tentativas demais. Aguarde alguns minutos e tente novamente.",
  "signIn.error.TwoFactor": "O código do segundo fator não funcionou. Entre novamente.",
  "signIn.error.TwoFactorExpired": "O acesso demorou demais. Entre novamente.",
  "signIn.error.default":
    "Não foi possível entrar. Tente de novo ou escolha outra forma de entrar.",

  "email.label": "E-mail",
  "email.placeholder": "nome@example.com",
  "email.submit": "Enviar link de acesso",
  "email.pending": "Enviando…",

  "passkey.submit": "Entrar com chave de acesso",
  "passkey.pending": "Aguardando sua chave de acesso…",
  "passkey.unsupported":
    "Este navegador não é compatível com chaves de acesso. Escolha outra forma de entrar.",
  "passkey.cancelled": "A solicitação da chave de acesso foi cancelada ou expirou. Tente de novo.",
  "passkey.registered":
    "Este dispositivo já tem uma chave de acesso para esta conta. Use-a para entrar.",
  "passkey.failed":
    "Não foi possível entrar com a chave de acesso. Tente de novo ou escolha outra forma de entrar.",
  "passkey.ipAddress":
    "Chaves de acesso não funcionam em um endereço IP como {host}. Abra esta página em localhost ou no nome de domínio do site.",

  "signOut.title": "Sair",
  "signOut.confirm": "Tem certeza de que deseja sair?",
  "signOut.submit": "Sair",
  "signOut.pending": "Saindo…",
  "signOut.cancel": "Cancelar",
  "signOut.signedOut": "Você não está conectado.",
  "signOut.back": "Voltar",
  "signOut.signIn": "Entrar",

  "verifyRequest.title": "Confira seu e-mail",
  "verifyRequest.message":
    "Enviamos um link de acesso para o seu e-mail. Abra o link para entrar; você pode fechar esta página.",
  "verifyRequest.back": "Voltar para {host}",
  "verifyRequest.code": "Enviamos um código de acesso para o seu e-mail. Digite-o abaixo.",
  "verifyRequest.codeLabel": "Código de acesso",
  "verifyRequest.submit": "Entrar",
  "confirmLink.title": "Entrar",
  "confirmLink.prompt": "Entrar como {email}",
  "confirmLink.submit": "Entrar",
  "confirmLink.note":
    "Este link funciona uma única vez. Se você não pediu para entrar, feche esta página.",
  "twoFactor.title": "Autenticação de dois fatores",
  "twoFactor.prompt":
    "Digite o código de 6 dígitos do seu aplicativo autenticador ou um dos seus códigos de recuperação.",
  "twoFactor.codeLabel": "Código",
  "twoFactor.submit": "Verificar",
  "twoFactor.pending": "Verificando…",
  "twoFactor.startOver": "Entrar novamente",
  "twoFactor.passkey": "Usar uma chave de acesso",
  "code.error.Verification": "Esse código não funcionou. Confira-o ou peça um novo.",
  "code.error.TwoFactor": "Esse código não funcionou. Tente novamente.",
  "code.error.RateLimited": "Tentativas demais. Aguarde alguns minutos e tente novamente.",
  "code.error.default": "Não funcionou. Tente novamente.",

  "error.Configuration.heading": "Erro no servidor",
  "error.Configuration.message":
    "Há um problema na configuração do servidor. Consulte os logs do servidor para mais informações.",
  "error.AccessDenied.heading": "Acesso negado",
  "error.AccessDenied.message":
    "Você não tem permissão para entrar. Se achar que isso é um erro, fale com o responsável pelo site ou entre com outra conta.",
  "error.Verification.heading": "Não foi possível entrar",
  "error.Verification.message":
    "O link de acesso não é mais válido. Talvez ele já tenha sido usado ou tenha expirado. Entre de novo para receber um novo link.",
  "error.default.heading": "Erro",
  "error.default.message": "Algo deu errado ao entrar. Tente de novo.",
  "error.signIn": "Entrar",
  "error.home": "Ir para a página inicial",

  "mail.subject": "Entrar em {host}",
  "mail.heading": "Entrar em {host}",
  "mail.button": "Entrar",
  "mail.ignore": "Se você não pediu este e-mail, pode ignorá-lo.",
  "mail.code": "Seu código de acesso:",
  "mail.or": "ou",
  "mail.orLink": "Ou entre com este link:",
  "mail.codeOnce": "O código funciona uma vez, por 10 minutos.",
}

export default pt
