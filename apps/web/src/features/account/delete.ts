// The account feature's deletion face (issue 24): Settings' "Delete your account".
export { DeleteAccount } from './components/delete-account';
