// En français, les mêmes clés que messages.en.ts (le type l’impose), en typographie française (i18n.test.ts).
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'app.tagline': 'Console d’exploitation des plateformes isolées',
  'app.connecting': 'Connexion au gestionnaire…',
  'app.signingInWithTicket': 'Connexion avec le lien à usage unique…',

  'login.title': 'Connexion',
  'login.name': 'Nom',
  'login.password': 'Mot de passe',
  'login.submit': 'Se connecter',
  'login.submitting': 'Connexion…',
  'login.missing': 'Saisissez votre nom et votre mot de passe.',
  'login.setupNeeded':
    'Aucun compte n’existe encore. Ouvrez le lien d’installation affiché par {command} pour créer le premier administrateur.',
  'login.ticketHint': 'Sur un poste de travail, vous pouvez aussi ouvrir le lien de connexion à usage unique affiché par {command}.',
  'login.notice.session_expired': 'Votre session a pris fin. Reconnectez-vous.',
  'login.notice.signed_out': 'Déconnexion effectuée.',
  'login.notice.setup_done': 'L’installation est déjà faite. Connectez-vous avec un compte existant.',
  'login.language': 'Langue',

  'setup.title': 'Créer le premier administrateur',
  'setup.intro': 'Ce gestionnaire n’a encore aucun compte. Le compte que vous créez maintenant reçoit le rôle d’administrateur.',
  'setup.name': 'Nom',
  'setup.submit': 'Créer l’administrateur',
  'setup.submitting': 'Création…',
  'setup.passwordMissing': 'Saisissez un mot de passe.',
  'mfa.enrol.start': 'Commencer',
  'mfa.enrol.scan': 'Scannez ce code QR avec votre application d’authentification.',
  'mfa.enrol.qrAlt': 'Code QR du secret TOTP de {account}',
  'mfa.enrol.manual': 'Ou saisissez ce secret à la main :',
  'mfa.enrol.code': 'Code affiché par l’application',
  'mfa.enrol.confirm': 'Confirmer',
  'mfa.enrol.confirming': 'Vérification…',
  'mfa.recovery.title': 'Enregistrez ces codes de secours maintenant',
  'mfa.recovery.help':
    'Chaque code permet une connexion si vous perdez l’application. Ils ne sont affichés que cette fois : copiez-les ou enregistrez-les dans un fichier et gardez-les en lieu sûr.',
  'mfa.recovery.done': 'Je les ai enregistrés',
  'mfa.login.title': 'Second facteur',
  'mfa.login.help': 'Saisissez le code à 6 chiffres de votre application d’authentification, ou l’un de vos codes de secours.',
  'mfa.code': 'Code',
  'mfa.codeHelp': '6 chiffres, ou un code de secours.',
  'mfa.codeMissing': 'Saisissez le code.',
  'mfa.login.submit': 'Vérifier',
  'mfa.login.back': 'Revenir au mot de passe',
  'mfa.required.title': 'Configurez votre second facteur',
  'mfa.required.body':
    '{name}, les profils d’installation utilisés exigent un second facteur pour votre rôle. La console s’ouvre une fois celui-ci configuré.',
};
